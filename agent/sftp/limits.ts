import { createHash } from 'node:crypto';
/**
 * What one client may cost the agent before it is refused: an SFTP server on every node is open to
 * the internet, so connections, argon2 verifications, channels, handles and requests are all
 * bounded; a refusal costs the agent next to nothing.
 */
export const SFTP_LIMITS = {
  /** Connections at once, in all and from one address (before any login). */
  connections: 200,
  connectionsPerAddress: 10,
  /** Logged-in connections of one user at once. */
  connectionsPerUser: 10,
  /** Session channels one connection may open (OpenSSH's sftp opens one). */
  channelsPerConnection: 4,
  /** argon2 verifications running at once (each takes ~19 MiB and tens of ms), and waiting. */
  verifications: 2,
  verificationQueue: 32,
  /** Password attempts from one address per minute, whatever the usernames. */
  attemptsPerAddress: 60,
  attemptsWindowMs: 60_000,
  /** Open handles (files and directories) of one session, and requests being worked on at once. */
  handles: 256,
  requestsInFlight: 64,
  /** Answers ssh2 holds back for a client that does not open its window: beyond, the channel is closed. */
  bufferedAnswers: 64,
  /** Bytes one READ answers at most (OpenSSH asks for 32 KiB). */
  readBytes: 64 * 1024,
} as const;

/**
 * The username rule of shared/domains/sftp/usernames.ts, copied: the agent bundle imports only the
 * protocol from shared/, and that module pulls in the API's errors. Keep the two in step.
 */
export const USERNAME_PATTERN = /^[a-z][a-z0-9_-]{2,31}$/;

/**
 * What the log says of a login name that is no user's: a short digest, never the name. People
 * paste passwords into the username field; a digest still lets operators see one name retried.
 */
export function nameDigest(name: string): string {
  return `sha256:${createHash('sha256').update(name).digest('hex').slice(0, 16)}`;
}

/**
 * At most `concurrency` tasks at once and `maxWaiting` waiting for a turn; beyond that a task is
 * refused at once (null), so a flood queues a bounded amount of work instead of all of it.
 */
export class BoundedSemaphore {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly concurrency: number;
  private readonly maxWaiting: number;
  constructor(concurrency: number, maxWaiting: number) {
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
  }

  /** The task's result, or null when it was refused because too many wait already. */
  async run<T>(task: () => Promise<T>): Promise<{ value: T } | null> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) return null;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return { value: await task() };
    } finally {
      // hand the slot straight to the next waiter (running stays counted), or free it
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** Attempts per key in a fixed window (per source address); the oldest keys go beyond `maxKeys`. */
export class AttemptBucket {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly maxKeys: number;
  constructor(limit: number, windowMs: number, now: () => number = Date.now, maxKeys = 10_000) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
    this.maxKeys = maxKeys;
  }

  /** Counts one attempt; false when the key has used up its window. */
  take(key: string): boolean {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
    }
    window.count += 1;
    return window.count <= this.limit;
  }
}

/** Live things counted per key (connections per address, per user), with a ceiling per key. */
export class CountPerKey {
  private readonly counts = new Map<string, number>();
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  /** Takes a place for `key`; false (nothing taken) when it has `max` already. */
  take(key: string): boolean {
    const count = this.counts.get(key) ?? 0;
    if (count >= this.max) return false;
    this.counts.set(key, count + 1);
    return true;
  }

  release(key: string): void {
    const count = (this.counts.get(key) ?? 0) - 1;
    if (count <= 0) this.counts.delete(key);
    else this.counts.set(key, count);
  }
}
