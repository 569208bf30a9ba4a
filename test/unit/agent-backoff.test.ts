import { describe, expect, it } from 'vitest';
import { Backoff, backoffCeiling, CONTROL_PLANE_BACKOFF, fullJitterDelay, refusedDelay, REFUSED_BACKOFF } from '../../agent/backoff.ts';

describe('agent backoff (exponential, full jitter)', () => {
  const policy = { baseMs: 500, capMs: 30_000 };

  it('doubles the ceiling per failure up to the cap, and never overflows', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffCeiling(attempt, policy))).toEqual([500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(backoffCeiling(10_000, policy)).toBe(30_000);
    expect(backoffCeiling(-3, policy)).toBe(500);
  });

  it('draws uniformly between zero and the ceiling', () => {
    expect(fullJitterDelay(3, policy, () => 0)).toBe(0);
    expect(fullJitterDelay(3, policy, () => 0.5)).toBe(2000);
    expect(fullJitterDelay(3, policy, () => 0.999_999)).toBe(3999);
    expect(fullJitterDelay(50, policy, () => 0.999_999)).toBeLessThan(30_000);
  });

  it('grows with consecutive failures and starts over after a success', () => {
    const backoff = new Backoff(policy, () => 0.999_999);
    const delays = Array.from({ length: 8 }, () => backoff.next());
    expect(delays).toEqual([499, 999, 1999, 3999, 7999, 15_999, 29_999, 29_999]);
    expect(backoff.failures).toBe(8);
    backoff.reset();
    expect(backoff.next()).toBe(499);
  });

  it("caps the agent's retries at about 30 s", () => {
    expect(CONTROL_PLANE_BACKOFF.capMs).toBe(30_000);
  });

  it('waits long after refused credentials: at least half the ceiling, never more than it', () => {
    expect(refusedDelay(REFUSED_BACKOFF, () => 0)).toBe(REFUSED_BACKOFF.baseMs / 2);
    expect(refusedDelay(REFUSED_BACKOFF, () => 0.999_999)).toBeLessThan(REFUSED_BACKOFF.baseMs);
    expect(refusedDelay({ baseMs: 1000, capMs: 1000 }, () => 0.5)).toBe(750);
  });
});
