import pg from 'pg';
import type { Logger } from '../../logger.ts';

/** The channel the principal triggers notify (migrations/20261207020000_principal_changes.ts). */
export const PRINCIPAL_CHANGES_CHANNEL = 'principal_changes';
/** The backstop: an entry is read again after this long even if no change was heard. */
export const PRINCIPAL_CACHE_TTL_MS = 10_000;
/** Callers kept per process; past it the oldest are dropped (a Map iterates in insertion order). */
export const PRINCIPAL_CACHE_MAX_ENTRIES = 10_000;
const RECONNECT_DELAY_MS = 1_000;
/** How long sync() waits for its own notification before it empties the cache instead. */
const SYNC_TIMEOUT_MS = 5_000;

/** What an entry depends on, as the triggers name it: `user:<id>`, `team:<id>`, `role:<id>`, `session:<id>`, `api_token:<id>`. */
export type PrincipalTag = string;

type Entry = { value: unknown; tags: PrincipalTag[]; expiresAt: number };

export type PrincipalCache = {
  /**
   * The cached value of `key`, or `load()`'s (kept when it gives tags, unless a change was heard
   * while it loaded, so a read racing a revocation cannot bring the old caller back).
   */
  remember<T>(key: string, load: () => Promise<{ value: T; tags: PrincipalTag[]; expiresAt?: number }>): Promise<T>;
  /** Drops every entry depending on `tag` (what a notification does). */
  invalidate(tag: PrincipalTag): void;
  /** Drops every entry (and any load in flight is not kept). */
  forgetAll(): void;
  /** Whether an entry depending on `tag` is kept now. */
  holds(tag: PrincipalTag): boolean;
  /** Calls `listener` with each change heard, after its entries are dropped; returns the unsubscribe. */
  onChange(listener: (tag: PrincipalTag) => void): () => void;
  /**
   * Resolves once every change committed before the call has been heard (a notification of its own
   * sent through the LISTEN connection comes back after them: Postgres delivers in commit order).
   * For a writer outside the API, such as a test or an admin command, that must see its change at once.
   */
  sync(): Promise<void>;
  /** Whether the LISTEN connection is up: while it is not, nothing is served from memory. */
  readonly listening: boolean;
  readonly size: number;
  close(): Promise<void>;
};

/**
 * The /v1 callers this process has verified (their session or API token, membership, role and
 * account facts), so the common request finds its caller without Redis or Postgres. Correctness
 * rests on one dedicated Postgres connection LISTENing on principal_changes: every change a caller
 * depends on notifies on commit, and every process drops the matching entries as the notification
 * arrives (milliseconds). While that connection is down the cache is emptied and bypassed (every
 * request reads the database, as before), so a missed notification can never keep a revoked caller
 * alive; the TTL bounds what any other gap could.
 */
export function createPrincipalCache(databaseUrl: string, logger: Logger, options: { ttlMs?: number; maxEntries?: number } = {}): PrincipalCache {
  const ttlMs = options.ttlMs ?? PRINCIPAL_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? PRINCIPAL_CACHE_MAX_ENTRIES;
  const entries = new Map<string, Entry>();
  // Bumped by every change heard: a load that spans one is not kept.
  let generation = 0;
  let listening = false;
  let client: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let closed = false;

  const listeners = new Set<(tag: PrincipalTag) => void>();
  // sync()'s own notifications, by payload, waiting to come back
  const barriers = new Map<string, () => void>();
  let barrierCount = 0;
  const invalidate = (tag: PrincipalTag) => {
    generation += 1;
    for (const [key, entry] of entries) if (entry.tags.includes(tag)) entries.delete(key);
    for (const listener of listeners) listener(tag);
  };
  const forgetAll = () => {
    generation += 1;
    entries.clear();
  };

  function connect(): void {
    if (closed || client) return;
    const connection = new pg.Client({ connectionString: databaseUrl, application_name: 'berth-principals' });
    client = connection;
    const lost = (error?: Error) => {
      if (client !== connection) return;
      client = undefined;
      listening = false;
      forgetAll();
      connection.removeAllListeners();
      connection.on('error', () => undefined);
      connection.end().catch(() => undefined);
      if (closed) return;
      logger.warn(
        { err: error?.message ?? 'connection ended' },
        'principal cache: LISTEN connection lost; reading every caller from the database until it is back',
      );
      reconnect = setTimeout(() => {
        reconnect = undefined;
        connect();
      }, RECONNECT_DELAY_MS);
      reconnect.unref();
    };
    connection.on('error', lost);
    connection.on('end', () => lost());
    connection.on('notification', (message) => {
      if (!message.payload) return;
      const barrier = barriers.get(message.payload);
      if (!barrier) return invalidate(message.payload);
      barriers.delete(message.payload);
      barrier();
    });
    connection
      .connect()
      .then(() => connection.query(`LISTEN ${PRINCIPAL_CHANGES_CHANNEL}`))
      .then(() => {
        if (client !== connection) return;
        forgetAll(); // whatever changed while nobody listened
        listening = true;
      })
      .catch((error: Error) => lost(error));
  }
  connect();

  return {
    async remember<T>(key: string, load: () => Promise<{ value: T; tags: PrincipalTag[]; expiresAt?: number }>): Promise<T> {
      const now = Date.now();
      const hit = listening ? entries.get(key) : undefined;
      if (hit && hit.expiresAt > now) return hit.value as T;
      if (hit) entries.delete(key);
      const started = generation;
      const loaded = await load();
      if (listening && generation === started) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { value: loaded.value, tags: loaded.tags, expiresAt: Math.min(now + ttlMs, loaded.expiresAt ?? Infinity) });
      }
      return loaded.value;
    },
    async sync() {
      const connection = client;
      if (!listening || !connection) return; // nothing is served from memory: every read is fresh
      barrierCount += 1;
      const payload = `sync:${process.pid}:${barrierCount}`;
      const back = new Promise<void>((resolve) => barriers.set(payload, resolve));
      try {
        await connection.query('SELECT pg_notify($1, $2)', [PRINCIPAL_CHANGES_CHANNEL, payload]);
        // the connection may drop before it comes back; then the cache was emptied anyway
        await Promise.race([back, new Promise((resolve) => setTimeout(resolve, SYNC_TIMEOUT_MS).unref())]);
        if (barriers.has(payload)) forgetAll();
      } catch {
        forgetAll();
      } finally {
        barriers.delete(payload);
      }
    },
    invalidate,
    forgetAll,
    holds: (tag) => [...entries.values()].some((entry) => entry.tags.includes(tag) && entry.expiresAt > Date.now()),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get listening() {
      return listening;
    },
    get size() {
      return entries.size;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(reconnect);
      entries.clear();
      const connection = client;
      client = undefined;
      if (connection) {
        connection.removeAllListeners();
        connection.on('error', () => undefined);
        await connection.end().catch(() => undefined);
      }
    },
  };
}

/** A cache that keeps nothing: every request reads its caller (for an app assembled without a server, as some tests do). */
export const noPrincipalCache: PrincipalCache = {
  remember: async (_key, load) => (await load()).value,
  invalidate: () => undefined,
  forgetAll: () => undefined,
  sync: async () => undefined,
  holds: () => false,
  onChange: () => () => undefined,
  listening: false,
  size: 0,
  close: async () => undefined,
};
