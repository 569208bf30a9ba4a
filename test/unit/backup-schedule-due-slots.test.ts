import { describe, expect, it } from 'vitest';
import { dueSlot, dueSlotsAt } from '../../shared/domains/backups/schedules.ts';

/** The tick computes each distinct cadence and pending slot once per batch (issue 24): the answers must be dueSlot's. */
describe('dueSlotsAt', () => {
  const now = new Date('2026-12-07T10:30:00Z');
  const cases = [
    { cadence: { cron: '0 3 * * *', timezone: 'Europe/Berlin' }, pending: new Date('2026-12-07T02:00:00Z') },
    { cadence: { cron: '0 3 * * *', timezone: 'UTC' }, pending: new Date('2026-12-07T02:00:00Z') },
    { cadence: { cron: '0 3 * * *', timezone: 'Europe/Berlin' }, pending: new Date('2026-12-01T02:00:00Z') },
    { cadence: { cron: '15 * * * *', timezone: 'Europe/Berlin' }, pending: new Date('2026-12-07T10:15:00Z') },
  ];

  it("gives dueSlot's answer for each schedule, however many share a cadence or a pending slot", () => {
    const dueSlotOf = dueSlotsAt(now);
    for (const { cadence, pending } of [...cases, ...cases]) expect(dueSlotOf(cadence, pending)).toEqual(dueSlot(cadence, pending, now));
    // a zone of its own is an answer of its own (the key is not the expression alone)
    expect(dueSlotOf(cases[0]!.cadence, cases[0]!.pending)).not.toEqual(dueSlotOf(cases[1]!.cadence, cases[1]!.pending));
  });
});
