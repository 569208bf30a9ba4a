import { describe, expect, it } from 'vitest';
import { recordable, targetIdOf } from '../../api/v1/audit.ts';
import type { RouteDoc } from '../../api/openapi/documented-router.ts';
import { outcomeOf, withoutSecrets } from '../../shared/domains/activity/record-activity.ts';

const doc = (path: string, targetParam?: string): RouteDoc => ({
  method: 'patch',
  path,
  operationId: 'x.update',
  summary: 'x',
  tags: [],
  responses: {},
  audit: { action: 'thing.changed', target: 'thing', ...(targetParam ? { targetParam } : {}) },
});

describe('activity metadata', () => {
  it('drops keys that name a secret, at any depth, and keeps ids of secret things', () => {
    expect(
      withoutSecrets({
        password: 'p',
        new_password: 'p',
        token: 't',
        access_token: 't',
        refresh_tokens: ['t'],
        secret: 's',
        client_secret: 's',
        code: '1',
        totp_code: '1',
        backup_codes: ['1'],
        otp: '1',
        token_hash: 'h',
        key: 'k',
        api_key: 'k',
        token_id: 3,
        api_token_id: 4,
        error: 'AUTHORIZATION_ERROR',
        role: 'viewer',
        skipped: undefined,
        nested: { password: 'p', keep: true },
      }),
    ).toEqual({ token_id: 3, api_token_id: 4, error: 'AUTHORIZATION_ERROR', role: 'viewer', nested: { keep: true } });
  });

  it('calls 401 and 403 denied, other errors failed, anything else success', () => {
    expect([200, 204, 302, null, 400, 401, 403, 404, 409, 422, 500].map(outcomeOf)).toEqual([
      'success',
      'success',
      'success',
      'success',
      'failed',
      'denied',
      'denied',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
  });
});

describe('the target id of an audited route', () => {
  it('is the last path parameter by default', () => {
    expect(targetIdOf(doc('/teams/:id/members/:user_id'), { id: '1', user_id: '7' }, { data: { id: 9 } })).toBe('7');
  });

  it('is the declared parameter when the route names one', () => {
    expect(targetIdOf(doc('/teams/:id/members/:user_id', 'id'), { id: '1', user_id: '7' }, undefined)).toBe('1');
  });

  it("is the answer's data.id when the path has none (or not the declared one), else null", () => {
    expect(targetIdOf(doc('/api-tokens'), {}, { data: { id: 12 } })).toBe('12');
    expect(targetIdOf(doc('/teams/:id/invites', 'invite_id'), { id: '1' }, { data: { id: 'abc' } })).toBe('abc');
    expect(targetIdOf(doc('/api-tokens'), {}, undefined)).toBeNull();
    expect(targetIdOf(doc('/api-tokens'), {}, { data: { id: { nested: true } } })).toBeNull();
  });
});

describe('request text recorded in the trail', () => {
  it('spells out U+0000 (Postgres text cannot hold it) and bounds the length, so a hostile path is still recorded', () => {
    expect(recordable('1\u00001', 200)).toBe('1\\u00001');
    expect(recordable('a'.repeat(2000), 200)).toBe(`${'a'.repeat(199)}…`);
    expect(recordable('42', 200)).toBe('42');
    expect(recordable(null, 200)).toBeNull();
  });
});
