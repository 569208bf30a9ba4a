/**
 * Retry delays towards the control plane: exponential with full jitter (a uniform draw between 0 and
 * the exponential ceiling), so a fleet of agents that lost the control plane at the same moment does
 * not come back in lockstep.
 */
export type BackoffPolicy = { baseMs: number; capMs: number };

export const CONTROL_PLANE_BACKOFF: BackoffPolicy = { baseMs: 500, capMs: 30_000 };
/** Refused credentials (a disabled node, an unknown key) are not fixed by hammering: wait long. */
export const REFUSED_BACKOFF: BackoffPolicy = { baseMs: 60_000, capMs: 120_000 };

/** The ceiling before jitter: base·2^attempt, at most cap (attempt 0 is the first retry). */
export function backoffCeiling(attempt: number, policy: BackoffPolicy): number {
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
}

/** A delay in [0, ceiling): `random` is injectable so the arithmetic can be tested. */
export function fullJitterDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  return Math.floor(random() * backoffCeiling(attempt, policy));
}

/** Consecutive failures of one loop; a success resets it. */
export class Backoff {
  private attempt = 0;
  private readonly policy: BackoffPolicy;
  private readonly random: () => number;

  constructor(policy: BackoffPolicy = CONTROL_PLANE_BACKOFF, random: () => number = Math.random) {
    this.policy = policy;
    this.random = random;
  }

  next(): number {
    const delay = fullJitterDelay(this.attempt, this.policy, this.random);
    this.attempt += 1;
    return delay;
  }

  reset(): void {
    this.attempt = 0;
  }

  get failures(): number {
    return this.attempt;
  }
}

/**
 * After refused credentials (a disabled node, an unknown key): "equal jitter", at least half the
 * ceiling, so a refused agent never retries quickly but a re-enabled node is back within minutes.
 */
export function refusedDelay(policy: BackoffPolicy = REFUSED_BACKOFF, random: () => number = Math.random): number {
  const ceiling = backoffCeiling(0, policy);
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: loops check the signal). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
