import pg from 'pg';
import type { Logger } from '../../logger.ts';

/** What a notification says: whose operation changed (team null: a platform operation). */
export type EventWake = { teamId: number | null; operationId: string };
/** Called with a wake-up, or with null when every reader should look (the backstop, a reconnect). */
export type EventListener = (wake: EventWake | null) => void;

export type EventNotifier = {
  /** Adds a listener; the returned function removes it. The first one opens the LISTEN connection. */
  subscribe(listener: EventListener): () => void;
  /** Aborted by close(): the streams end (their clients reconnect to another process). */
  readonly closing: AbortSignal;
  close(): Promise<void>;
};

/** The channel the operation_events triggers notify (migrations/20261129010000_operation_events.ts). */
export const OPERATION_EVENTS_CHANNEL = 'operation_events';
/** Readers look this often even without a notification, so a lost one delays an event, never loses it. */
export const BACKSTOP_INTERVAL_MS = 5_000;
const RECONNECT_DELAY_MS = 1_000;

/**
 * One dedicated Postgres connection per process LISTENing on operation_events, fanned out to the
 * in-process readers (the SSE streams). A notification only wakes readers: they read the rows, so
 * nothing lives only here. Connected while someone listens (a worker process never opens it);
 * reconnects after an error, waking every reader once it is back.
 */
export function createEventNotifier(databaseUrl: string, logger: Logger): EventNotifier {
  const listeners = new Set<EventListener>();
  let client: pg.Client | undefined;
  let backstop: NodeJS.Timeout | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let closed = false;
  const closing = new AbortController();

  const wakeAll = (wake: EventWake | null) => {
    for (const listener of listeners) listener(wake);
  };

  function connect(): void {
    if (closed || client || listeners.size === 0) return;
    const connection = new pg.Client({ connectionString: databaseUrl, application_name: 'berth-events' });
    client = connection;
    const lost = (error?: Error) => {
      if (client !== connection) return;
      client = undefined;
      connection.removeAllListeners();
      connection.on('error', () => undefined);
      connection.end().catch(() => undefined);
      if (closed) return;
      logger.warn({ err: error?.message ?? 'connection ended' }, 'operation events: LISTEN connection lost; reconnecting');
      reconnect = setTimeout(() => {
        reconnect = undefined;
        connect();
      }, RECONNECT_DELAY_MS);
      reconnect.unref();
    };
    connection.on('error', lost);
    connection.on('end', () => lost());
    connection.on('notification', (message) => {
      const [team = '', operationId = ''] = (message.payload ?? '').split(':');
      wakeAll({ teamId: team === '' ? null : Number(team), operationId });
    });
    connection
      .connect()
      .then(() => connection.query(`LISTEN ${OPERATION_EVENTS_CHANNEL}`))
      // Whatever was written while no connection listened is read now.
      .then(() => wakeAll(null))
      .catch((error: Error) => lost(error));
  }

  return {
    closing: closing.signal,
    subscribe(listener) {
      if (closed) return () => undefined;
      listeners.add(listener);
      connect();
      if (!backstop) {
        backstop = setInterval(() => wakeAll(null), BACKSTOP_INTERVAL_MS);
        backstop.unref();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && backstop) {
          clearInterval(backstop);
          backstop = undefined;
        }
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      closing.abort();
      clearInterval(backstop);
      clearTimeout(reconnect);
      const connection = client;
      client = undefined;
      listeners.clear();
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
    },
  };
}
