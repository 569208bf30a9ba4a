import { describe, expect, it } from 'vitest';
import { checkCadence, dueSlot, lastSlotAtOrBefore, nextSlotAfter } from '../../shared/domains/backups/schedules.ts';
import { ValidationFailed } from '../../shared/errors.ts';

const toDate = (iso: string) => new Date(iso);
const toIso = (date: Date) => date.toISOString();

/** The first `count` slots after `from`, each found from the one before, as the scheduler walks them. */
function slots(cron: string, timezone: string, from: string, count: number): string[] {
  const found: string[] = [];
  let after = toDate(from);
  for (let index = 0; index < count; index += 1) {
    after = nextSlotAfter({ cron, timezone }, after);
    found.push(toIso(after));
  }
  return found;
}

function problemsOf(cron: string, timezone: string): Record<string, string> {
  try {
    checkCadence({ cron, timezone });
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailed);
    return Object.fromEntries((error as ValidationFailed).problems.map((problem) => [problem.field, problem.message]));
  }
  return {};
}

describe('the next slot of a backup schedule', () => {
  it("is strictly after now, in the schedule's zone", () => {
    const daily = { cron: '30 2 * * *', timezone: 'Europe/Berlin' };
    // 02:30 in Berlin in January is 01:30 UTC (CET, +1)
    expect(toIso(nextSlotAfter(daily, toDate('2026-01-10T00:00:00Z')))).toBe('2026-01-10T01:30:00.000Z');
    expect(toIso(nextSlotAfter(daily, toDate('2026-01-10T01:30:00Z')))).toBe('2026-01-11T01:30:00.000Z');
    expect(toIso(nextSlotAfter(daily, toDate('2026-01-10T01:29:59.999Z')))).toBe('2026-01-10T01:30:00.000Z');
    // in July it is 00:30 UTC (CEST, +2)
    expect(toIso(nextSlotAfter(daily, toDate('2026-07-10T00:00:00Z')))).toBe('2026-07-10T00:30:00.000Z');
  });

  it('crosses the spring DST change in Europe/Berlin: a daily 02:30, which does not exist that night, runs at 03:30 CEST once', () => {
    // 2026-03-29 02:00 CET becomes 03:00 CEST (01:00 UTC)
    expect(slots('30 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', 4)).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:30:00.000Z', // 03:30 CEST: the skipped hour's slot, once
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
      '2026-03-31T00:30:00.000Z',
    ]);
    // a daily 04:00 keeps its wall-clock time: 23 hours between the two around the change
    expect(slots('0 4 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', 2)).toEqual(['2026-03-28T03:00:00.000Z', '2026-03-29T02:00:00.000Z']);
  });

  it('crosses the autumn DST change in Europe/Berlin: a daily 02:30, which happens twice that night, runs once', () => {
    // 2026-10-25 03:00 CEST becomes 02:00 CET (01:00 UTC)
    expect(slots('30 2 * * *', 'Europe/Berlin', '2026-10-23T12:00:00Z', 4)).toEqual([
      '2026-10-24T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T00:30:00.000Z', // the first 02:30 (CEST) only
      '2026-10-26T01:30:00.000Z', // 02:30 CET
      '2026-10-27T01:30:00.000Z',
    ]);
  });

  it('keeps an hourly expression one hour apart across both DST changes', () => {
    const spring = slots('0 * * * *', 'Europe/Berlin', '2026-03-28T23:30:00Z', 4);
    expect(spring).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z', '2026-03-29T03:00:00.000Z']);
    const autumn = slots('0 * * * *', 'Europe/Berlin', '2026-10-24T23:30:00Z', 4);
    // 02:00 CEST then 02:00 CET: the repeated hour is an hour of its own
    expect(autumn).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z', '2026-10-25T03:00:00.000Z']);
    expect(slots('15 * * * *', 'UTC', '2026-05-01T10:15:00Z', 2)).toEqual(['2026-05-01T11:15:00.000Z', '2026-05-01T12:15:00.000Z']);
  });

  it('finds the latest slot at or before a time, so a tick after downtime fires the most recent missed slot', () => {
    const hourly = { cron: '0 * * * *', timezone: 'UTC' };
    expect(toIso(lastSlotAtOrBefore(hourly, toDate('2026-05-01T13:42:10Z')))).toBe('2026-05-01T13:00:00.000Z');
    expect(toIso(lastSlotAtOrBefore(hourly, toDate('2026-05-01T13:00:00Z')))).toBe('2026-05-01T13:00:00.000Z');
    expect(toIso(lastSlotAtOrBefore({ cron: '0 3 * * 1', timezone: 'America/New_York' }, toDate('2026-05-01T12:00:00Z')))).toBe('2026-04-27T07:00:00.000Z');
  });
});

describe('the slot a due schedule fires', () => {
  const hourly = { cron: '0 * * * *', timezone: 'Europe/Berlin' };
  it('is its pending slot when that is the only one due, and the next is the slot after it', () => {
    expect(dueSlot(hourly, toDate('2026-06-10T12:00:00Z'), toDate('2026-06-10T12:00:03Z'))).toEqual({
      slot: toDate('2026-06-10T12:00:00Z'),
      next: toDate('2026-06-10T13:00:00Z'),
    });
  });
  it('after downtime is the latest slot at or before now, once, walking forward or (long downtime) asking prev', () => {
    expect(dueSlot(hourly, toDate('2026-06-10T07:00:00Z'), toDate('2026-06-10T12:34:56Z'))).toEqual({
      slot: toDate('2026-06-10T12:00:00Z'),
      next: toDate('2026-06-10T13:00:00Z'),
    });
    expect(dueSlot(hourly, toDate('2026-06-01T07:00:00Z'), toDate('2026-06-10T12:00:00Z'))).toEqual({
      slot: toDate('2026-06-10T12:00:00Z'),
      next: toDate('2026-06-10T13:00:00Z'),
    });
    const daily = { cron: '30 2 * * *', timezone: 'Europe/Berlin' };
    // down across the spring change: the latest missed slot is 03:30 CEST of the 29th
    expect(dueSlot(daily, toDate('2026-03-27T01:30:00Z'), toDate('2026-03-29T12:00:00Z'))).toEqual({
      slot: toDate('2026-03-29T01:30:00Z'),
      next: toDate('2026-03-30T00:30:00Z'),
    });
  });
});

describe("a backup schedule's cron and zone", () => {
  it('accepts 5-field expressions firing at most hourly and canonical IANA zones', () => {
    expect(checkCadence({ cron: ' 0  3 * * * ', timezone: 'europe/berlin' })).toEqual({ cron: '0 3 * * *', timezone: 'Europe/Berlin' });
    expect(checkCadence({ cron: '0 * * * *', timezone: 'UTC' })).toEqual({ cron: '0 * * * *', timezone: 'UTC' });
    expect(checkCadence({ cron: '45 1 * * MON-FRI', timezone: 'America/Argentina/Buenos_Aires' }).cron).toBe('45 1 * * MON-FRI');
    expect(checkCadence({ cron: '0 0 1 * *', timezone: 'Asia/Kolkata' }).timezone).toBe('Asia/Kolkata');
  });

  it('refuses expressions firing more often than hourly, with seconds, aliases or that never fire, naming cron', () => {
    expect(problemsOf('* * * * *', 'UTC').cron).toMatch(/more than once an hour/);
    expect(problemsOf('*/30 * * * *', 'UTC').cron).toMatch(/more than once an hour/);
    expect(problemsOf('0,30 2 * * *', 'UTC').cron).toMatch(/more than once an hour/);
    expect(problemsOf('0 0 3 * * *', 'UTC').cron).toMatch(/5 fields.*seconds are not supported/);
    expect(problemsOf('@daily', 'UTC').cron).toMatch(/5 fields/);
    expect(problemsOf('61 2 * * *', 'UTC').cron).toMatch(/not a valid cron expression/);
    expect(problemsOf('0 0 31 2 *', 'UTC').cron).toMatch(/not a valid cron expression/);
    expect(problemsOf('', 'UTC').cron).toBeDefined();
  });

  it('refuses unknown zones and bare offsets, naming timezone (and cron too when both are wrong)', () => {
    expect(problemsOf('0 3 * * *', 'Mars/Olympus_Mons')).toEqual({ timezone: expect.stringMatching(/IANA/) });
    expect(problemsOf('0 3 * * *', '+01:00')).toHaveProperty('timezone');
    expect(problemsOf('0 3 * * *', '')).toHaveProperty('timezone');
    expect(Object.keys(problemsOf('* * * * *', 'Nowhere/Zone')).sort()).toEqual(['cron', 'timezone']);
  });
});
