const DAY_MS = 86_400_000;

export type DunningSlot = { attempt: number; scheduledFor: Date };

/** Every attempt of an invoice due at `dueAt`: attempt n (1-based) is due `days[n-1]` days after it. */
export function dunningSlots(dueAt: Date, days: readonly number[]): DunningSlot[] {
  return days.map((day, index) => ({ attempt: index + 1, scheduledFor: new Date(dueAt.getTime() + day * DAY_MS) }));
}

/**
 * The attempt a sweep at `now` makes: the latest one already due, unless that one or a later one was
 * made (`lastMade`). Earlier ones the sweep missed are not made at all, so a sweep that was down for
 * days sends one mail, not a burst.
 */
export function dueAttempt(dueAt: Date, days: readonly number[], lastMade: number, now: Date): DunningSlot | null {
  const due = dunningSlots(dueAt, days).filter((slot) => slot.scheduledFor.getTime() <= now.getTime());
  const latest = due.at(-1);
  return latest && latest.attempt > lastMade ? latest : null;
}

/**
 * When the next attempt will be made, as of `now`: the one dueAttempt would make (overdue if the sweep
 * has not run since), else the first still to come after the last made; null when none is left.
 */
export function nextAttemptAt(dueAt: Date, days: readonly number[], lastMade: number, now: Date): Date | null {
  const pending = dueAttempt(dueAt, days, lastMade, now);
  if (pending) return pending.scheduledFor;
  return dunningSlots(dueAt, days).find((slot) => slot.attempt > lastMade && slot.scheduledFor.getTime() > now.getTime())?.scheduledFor ?? null;
}

/** The attempt after `attempt` in the schedule (what a mail announces as the next retry), or null after the last. */
export function followingAttemptAt(dueAt: Date, days: readonly number[], attempt: number): Date | null {
  return dunningSlots(dueAt, days).find((slot) => slot.attempt === attempt + 1)?.scheduledFor ?? null;
}

/** When a subscription whose oldest open invoice is due at `dueAt` loses its entitlements (see sweepSubscriptions). */
export function withdrawalAt(dueAt: Date, unpaidAfterDays: number): Date {
  return new Date(dueAt.getTime() + unpaidAfterDays * DAY_MS);
}
