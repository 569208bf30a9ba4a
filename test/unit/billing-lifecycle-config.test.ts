import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config/config.ts';
import { configErrorOf } from '../helpers/config-errors.ts';
import { useTempDirs } from '../helpers/temp-dirs.ts';

/** BILLING_TRIAL_END_BEHAVIOR and BILLING_INCOMPLETE_EXPIRE_HOURS: what a trial's end does, when an unpaid first invoice expires. */
const dataDir = useTempDirs('berth-billing-config-');

describe('billing lifecycle configuration', () => {
  it("invoices at a trial's end and expires unpaid subscriptions after 23 hours by default (Stripe's rules)", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).billing).toMatchObject({ trialEndBehavior: 'invoice', incompleteExpireHours: 23 });
  });

  it('reads the two variables', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), BILLING_TRIAL_END_BEHAVIOR: 'pause', BILLING_INCOMPLETE_EXPIRE_HOURS: '48' }).billing).toMatchObject({
      trialEndBehavior: 'pause',
      incompleteExpireHours: 48,
    });
  });

  it.each([
    ['BILLING_TRIAL_END_BEHAVIOR', 'cancel'],
    ['BILLING_INCOMPLETE_EXPIRE_HOURS', '0'],
    ['BILLING_INCOMPLETE_EXPIRE_HOURS', '721'],
    ['BILLING_INCOMPLETE_EXPIRE_HOURS', '1.5'],
    ['BILLING_INCOMPLETE_EXPIRE_HOURS', 'a day'],
  ])('refuses %s=%j, naming it', (variable, value) => {
    expect(configErrorOf(dataDir, { [variable]: value })).toContain(variable);
  });
});
