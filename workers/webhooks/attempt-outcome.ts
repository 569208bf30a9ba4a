/**
 * What follows an attempt: pure, so the retry policy is tested on its own. Only a 2xx is a success;
 * 410 Gone means the receiver asks for no more (the endpoint is disabled); anything else is tried
 * again after the schedule's next wait, with ±20 % jitter so a receiver that comes back is not hit by
 * every sender at the same second, until the schedule is used up.
 */
export type Outcome = { kind: 'succeeded' } | { kind: 'gone' } | { kind: 'retry'; at: Date } | { kind: 'exhausted' };

export const JITTER = 0.2;

export function outcomeOf(status: number | null, attemptsMade: number, scheduleMs: readonly number[], now: Date, random: () => number = Math.random): Outcome {
  if (status !== null && status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'gone' };
  const wait = scheduleMs[attemptsMade - 1];
  if (wait === undefined) return { kind: 'exhausted' };
  const jittered = wait * (1 - JITTER + 2 * JITTER * random());
  return { kind: 'retry', at: new Date(now.getTime() + Math.round(jittered)) };
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function failedTooLong(failingSince: Date | null, now: Date, disableAfterMs: number): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= disableAfterMs;
}
