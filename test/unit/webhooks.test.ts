import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { eventMatches, isKnownEventFilter, operationEventTypes } from '../../shared/domains/webhooks/event-catalogue.ts';
import { newSigningSecret, signedHeaders } from '../../shared/domains/webhooks/signing.ts';
import { isInternalAddress } from '../../shared/domains/webhooks/target-guard.ts';
import { failedTooLong, outcomeOf } from '../../workers/webhooks/attempt-outcome.ts';

describe('webhook signatures', () => {
  it('verify with the Standard Webhooks reference library, under each secret of a rotation', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: 'site.renamed', timestamp: new Date().toISOString(), data: { site: { id: 1, name: 'ü ✓' } } });
    const headers = signedHeaders([current, previous], 'msg_1', body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow(/signature/i);
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow(/signature/i);
  });
});

describe('the SSRF guard', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'ff02::1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isInternalAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:93.184.215.14'])('allows %s', (address) => {
    expect(isInternalAddress(address)).toBe(false);
  });
});

describe('the retry policy', () => {
  const schedule = [5_000, 300_000];
  const now = new Date('2026-11-25T00:00:00Z');

  it('counts only 2xx as success, 410 as gone, and retries the rest on the schedule with ±20 % jitter', () => {
    expect(outcomeOf(204, 1, schedule, now)).toEqual({ kind: 'succeeded' });
    expect(outcomeOf(410, 1, schedule, now)).toEqual({ kind: 'gone' });
    for (const status of [301, 400, 500, null]) expect(outcomeOf(status, 1, schedule, now).kind).toBe('retry');
    expect(outcomeOf(500, 1, schedule, now, () => 0)).toEqual({ kind: 'retry', at: new Date(now.getTime() + 4_000) });
    expect(outcomeOf(500, 1, schedule, now, () => 1)).toEqual({ kind: 'retry', at: new Date(now.getTime() + 6_000) });
    expect(outcomeOf(500, 2, schedule, now, () => 0.5)).toEqual({ kind: 'retry', at: new Date(now.getTime() + 300_000) });
    expect(outcomeOf(500, 3, schedule, now)).toEqual({ kind: 'exhausted' });
  });

  it('disables an endpoint once it has failed for the whole period', () => {
    const day = 86_400_000;
    expect(failedTooLong(null, now, day)).toBe(false);
    expect(failedTooLong(new Date(now.getTime() - day + 1), now, day)).toBe(false);
    expect(failedTooLong(new Date(now.getTime() - day), now, day)).toBe(true);
  });
});

describe('event filters', () => {
  it('match exact types and groups, and know the catalogue', () => {
    expect(eventMatches([], 'site.created')).toBe(true);
    expect(eventMatches(['site.*'], 'site.created')).toBe(true);
    expect(eventMatches(['site.*'], 'sites.created')).toBe(false);
    expect(eventMatches(['backup.completed'], 'backup.create_failed')).toBe(false);
    expect(isKnownEventFilter('sftp_user.*')).toBe(true);
    expect(isKnownEventFilter('nothing.*')).toBe(false);
    expect(isKnownEventFilter('site.exploded')).toBe(false);
    expect(operationEventTypes('backup.create', 'failed')).toEqual(['operation.failed', 'backup.create_failed']);
    expect(operationEventTypes('wordpress.refresh', 'succeeded')).toEqual(['operation.succeeded']);
    expect(operationEventTypes('site.create', 'cancelled')).toEqual(['operation.cancelled']);
  });
});
