import pg from 'pg';
import { WEBHOOK_WORK_CHANNEL } from '../../shared/domains/webhooks/work-channel.ts';
import type { WorkerDeps } from '../registry.ts';
import { dispatcherIdle, wakeDispatcher } from './dispatch.processor.ts';

const RECONNECT_DELAY_MS = 1_000;

export type WebhookWorkListener = { close(): Promise<void> };

/**
 * One dedicated Postgres connection per worker process LISTENing on WEBHOOK_WORK_CHANNEL: each
 * committed event (or hand-made delivery) wakes the dispatcher at once. A notification carries
 * nothing: the dispatcher reads the rows, so a lost one only waits for the poll. Reconnects after
 * an error and dispatches once it is back (what committed while nobody listened). Closing waits for
 * the dispatcher's run in progress, so nothing uses the database after the workers are closed.
 */
export function listenForWebhookWork(deps: WorkerDeps): WebhookWorkListener {
  let client: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let closed = false;

  function connect(): void {
    if (closed || client) return;
    const connection = new pg.Client({ connectionString: deps.config.databaseUrl, application_name: 'berth-webhooks' });
    client = connection;
    const lost = (error?: Error) => {
      if (client !== connection) return;
      client = undefined;
      connection.removeAllListeners();
      connection.on('error', () => undefined);
      connection.end().catch(() => undefined);
      if (closed) return;
      deps.logger.warn({ err: error?.message ?? 'connection ended' }, 'webhooks: LISTEN connection lost; reconnecting');
      reconnect = setTimeout(() => {
        reconnect = undefined;
        connect();
      }, RECONNECT_DELAY_MS);
      reconnect.unref();
    };
    connection.on('error', lost);
    connection.on('end', () => lost());
    connection.on('notification', () => wakeDispatcher(deps));
    connection
      .connect()
      .then(() => connection.query(`LISTEN ${WEBHOOK_WORK_CHANNEL}`))
      .then(() => wakeDispatcher(deps))
      .catch((error: Error) => lost(error));
  }

  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(reconnect);
      const connection = client;
      client = undefined;
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
      await dispatcherIdle(deps.db);
    },
  };
}
