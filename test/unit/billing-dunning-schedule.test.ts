import { describe, expect, it } from 'vitest';
import { dueAttempt, dunningSlots, followingAttemptAt, nextAttemptAt, withdrawalAt } from '../../shared/domains/billing/dunning-schedule.ts';

const DAY_MS = 86_400_000;
const due = new Date('2026-12-01T10:00:00.000Z');
const days = [1, 3, 5, 7];
const at = (dayCount: number, extraMs = 0) => new Date(due.getTime() + dayCount * DAY_MS + extraMs);

describe('the dunning schedule', () => {
  it('puts attempt n on the nth day after the due date, at the due time of day', () => {
    expect(dunningSlots(due, days)).toEqual([
      { attempt: 1, scheduledFor: new Date('2026-12-02T10:00:00.000Z') },
      { attempt: 2, scheduledFor: new Date('2026-12-04T10:00:00.000Z') },
      { attempt: 3, scheduledFor: new Date('2026-12-06T10:00:00.000Z') },
      { attempt: 4, scheduledFor: new Date('2026-12-08T10:00:00.000Z') },
    ]);
    expect(dunningSlots(due, [])).toEqual([]);
  });

  it('makes nothing before the first day, and each attempt from its day on, once', () => {
    expect(dueAttempt(due, days, 0, at(1, -1))).toBeNull();
    expect(dueAttempt(due, days, 0, at(1))).toEqual({ attempt: 1, scheduledFor: at(1) });
    expect(dueAttempt(due, days, 1, at(2))).toBeNull();
    expect(dueAttempt(due, days, 1, at(3))?.attempt).toBe(2);
    expect(dueAttempt(due, days, 4, at(30))).toBeNull();
  });

  it('after missed days makes only the latest due attempt (no burst), never an earlier one than made', () => {
    expect(dueAttempt(due, days, 0, at(6))).toEqual({ attempt: 3, scheduledFor: at(5) });
    expect(dueAttempt(due, days, 1, at(8))?.attempt).toBe(4);
    // a sweep whose clock is behind the one that made attempt 3
    expect(dueAttempt(due, days, 3, at(4))).toBeNull();
  });

  it('says when the next attempt comes: the first still to come, or one overdue that the next sweep makes', () => {
    expect(nextAttemptAt(due, days, 0, at(-3))).toEqual(at(1));
    expect(nextAttemptAt(due, days, 1, at(1, 5))).toEqual(at(3));
    expect(nextAttemptAt(due, days, 1, at(6))).toEqual(at(5));
    expect(nextAttemptAt(due, days, 4, at(7))).toBeNull();
    expect(nextAttemptAt(due, [], 0, at(1))).toBeNull();
  });

  it('names the attempt after one (what a mail announces) and the day the plan is withdrawn', () => {
    expect(followingAttemptAt(due, days, 1)).toEqual(at(3));
    expect(followingAttemptAt(due, days, 3)).toEqual(at(7));
    expect(followingAttemptAt(due, days, 4)).toBeNull();
    expect(withdrawalAt(due, 14)).toEqual(at(14));
  });
});
