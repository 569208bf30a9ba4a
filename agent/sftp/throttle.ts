/** How wrong passwords are slowed down and locked out, per username and source address. */
export type ThrottleSettings = { maxFailures: number; windowMs: number; lockoutMs: number; baseDelayMs: number; maxDelayMs: number };

export const DEFAULT_THROTTLE: ThrottleSettings = { maxFailures: 5, windowMs: 15 * 60_000, lockoutMs: 15 * 60_000, baseDelayMs: 500, maxDelayMs: 8_000 };

/** Keys kept at most; the oldest go first (a flood of addresses cannot grow the agent's memory without end). */
const MAX_ENTRIES = 10_000;

/** Entries looked at for an unlocked one to evict, so a map full of lockouts costs a bounded scan. */
const EVICTION_SCAN = 1_000;

type Entry = { failures: number; firstAt: number; lockedUntil: number };

/**
 * Wrong SFTP passwords per `username|address`: each failure answers later than the one before
 * (base × 2^(n-1), capped), and `maxFailures` within the window lock the pair out for `lockoutMs`,
 * the right password included. An attempt counts as a failure from the moment it starts, so
 * parallel guesses cannot slip past the limit while they are being verified; success clears it.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();
  private readonly settings: ThrottleSettings;
  private readonly now: () => number;
  private readonly maxEntries: number;
  constructor(settings: ThrottleSettings = DEFAULT_THROTTLE, now: () => number = Date.now, maxEntries = MAX_ENTRIES) {
    this.settings = settings;
    this.now = now;
    this.maxEntries = maxEntries;
  }

  /** Milliseconds the pair stays locked out; 0 when it may try. */
  lockedFor(key: string): number {
    const entry = this.current(key);
    return entry ? Math.max(0, entry.lockedUntil - this.now()) : 0;
  }

  /** Counts an attempt before it is verified; returns how long to hold its answer should it fail. */
  attempt(key: string): number {
    const now = this.now();
    const entry = this.current(key) ?? { failures: 0, firstAt: now, lockedUntil: 0 };
    entry.failures += 1;
    if (entry.failures >= this.settings.maxFailures) entry.lockedUntil = now + this.settings.lockoutMs;
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.evictOne(now);
    return Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** (entry.failures - 1));
  }

  succeeded(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Makes room: the oldest entry that is not locked out goes first, so a flood of new pairs cannot
   * push a lockout out and give its guesser a fresh start; only when all are locked does the oldest go.
   */
  private evictOne(now: number): void {
    let scanned = 0;
    for (const [key, entry] of this.entries) {
      if (entry.lockedUntil <= now) {
        this.entries.delete(key);
        return;
      }
      if (++scanned >= EVICTION_SCAN) break;
    }
    this.entries.delete(this.entries.keys().next().value!);
  }

  private current(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.lockedUntil <= now && now - entry.firstAt > this.settings.windowMs) {
      this.entries.delete(key);
      return undefined;
    }
    if (entry.lockedUntil !== 0 && entry.lockedUntil <= now) {
      // the lockout served: a fresh window, one more failure locks again at once
      entry.failures = this.settings.maxFailures - 1;
      entry.lockedUntil = 0;
      entry.firstAt = now;
    }
    return entry;
  }
}
