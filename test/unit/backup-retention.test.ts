import { describe, expect, it } from 'vitest';
import type { BackupKind } from '../../shared/db/models.ts';
import { beyondRetention } from '../../shared/domains/backups/retention.ts';

const at = (day: number) => new Date(Date.UTC(2026, 11, day));
const backup = (id: string, kind: BackupKind, day: number) => ({ id, kind, created_at: at(day) });

describe('beyondRetention', () => {
  it('keeps the newest of each kind: `scheduled` of the scheduled ones, `manual` of every other kind each', () => {
    const backups = [
      backup('s1', 'scheduled', 1),
      backup('s3', 'scheduled', 3),
      backup('s2', 'scheduled', 2),
      backup('m1', 'manual', 1),
      backup('m2', 'manual', 2),
      backup('p1', 'pre_push', 1),
      backup('p2', 'pre_push', 4),
      backup('r1', 'pre_restore', 5),
    ];
    const expired = beyondRetention(backups, { scheduled: 2, manual: 1 }).map((entry) => entry.id);
    expect(expired.sort()).toEqual(['m1', 'p1', 's1']);
  });

  it('expires nothing within the plan, and everything of a kind the plan keeps none of', () => {
    const backups = [backup('m1', 'manual', 1), backup('m2', 'manual', 2)];
    expect(beyondRetention(backups, { scheduled: 14, manual: 10 })).toEqual([]);
    expect(beyondRetention(backups, { scheduled: 14, manual: 0 }).map((entry) => entry.id)).toEqual(['m2', 'm1']);
    expect(beyondRetention([], { scheduled: 1, manual: 1 })).toEqual([]);
  });

  it('orders backups made in the same instant by id, so every run decides alike', () => {
    const backups = [backup('b', 'manual', 1), backup('a', 'manual', 1), backup('c', 'manual', 1)];
    expect(beyondRetention(backups, { scheduled: 1, manual: 1 }).map((entry) => entry.id)).toEqual(['b', 'a']);
  });
});
