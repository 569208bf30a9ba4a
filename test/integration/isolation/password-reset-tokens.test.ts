import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueUserToken } from '../../../shared/domains/auth/user-tokens.ts';
import { createOwner, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { accessTokenOf, bearer, joinTeam } from '../../helpers/team-members.ts';

const CONFIRM = '/api/v1/auth/password-reset/confirm';
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false });
});
afterAll(async () => {
  await stack?.stop();
});

/**
 * Whoever held a stolen password could mint API tokens, which outlive a session sign-out: a reset
 * revokes them too unless the user says otherwise.
 */
async function userWithTokens(): Promise<{ user: TestUser; secrets: string[]; bystander: string }> {
  const user = await createOwner(stack.ctx.db);
  const otherTeam = await createOwner(stack.ctx.db);
  const inOther = await joinTeam(stack.ctx.db, user, otherTeam, 'admin');
  const secrets: string[] = [];
  for (const member of [user, inOther]) {
    const created = await stack.client().post('/v1/api-tokens', { name: 'attacker', permissions: ['sites:read'] }, bearer(await accessTokenOf(stack.client(), member)));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    secrets.push(created.body.data.token);
  }
  // another member's token in the same team is not the user's: untouched
  const created = await stack.client().post('/v1/api-tokens', { name: 'theirs', permissions: ['sites:read'] }, bearer(await accessTokenOf(stack.client(), otherTeam)));
  return { user, secrets, bystander: created.body.data.token };
}

const works = async (secret: string) => (await stack.client().get('/v1/me', bearer(secret))).status;

describe('password reset and API tokens', () => {
  it('revokes every API token the user created, in every team, by default', async () => {
    const { user, secrets, bystander } = await userWithTokens();
    for (const secret of [...secrets, bystander]) expect(await works(secret)).toBe(200);
    const reply = await stack.client().post(CONFIRM, { token: await issueUserToken(stack.ctx.db, user.userId, 'password_reset'), new_password: 'a fresh long passphrase' });
    expect(reply.status).toBe(200);
    expect(reply.body.message).toMatch(/2 API tokens were revoked/);
    for (const secret of secrets) expect(await works(secret)).toBe(401);
    expect(await works(bystander)).toBe(200);
    const entry = await stack.ctx.db('activity').where({ action: 'auth.password_reset', target_id: String(user.userId) }).first();
    expect(entry.metadata).toMatchObject({ sessions_revoked: true, api_tokens_revoked: 2 });
  });

  it('keeps them with revoke_api_tokens: false (sessions still end)', async () => {
    const { user, secrets } = await userWithTokens();
    const reply = await stack.client().post(CONFIRM, { token: await issueUserToken(stack.ctx.db, user.userId, 'password_reset'), new_password: 'a fresh long passphrase', revoke_api_tokens: false });
    expect(reply.status).toBe(200);
    expect(reply.body.message).not.toMatch(/revoked/);
    for (const secret of secrets) expect(await works(secret)).toBe(200);
  });

  it('refuses a revoke_api_tokens that is not a boolean with 422 validation_error, and the token stays usable', async () => {
    const { user, secrets } = await userWithTokens();
    const token = await issueUserToken(stack.ctx.db, user.userId, 'password_reset');
    const reply = await stack.client().post(CONFIRM, { token, new_password: 'a fresh long passphrase', revoke_api_tokens: 'no' });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('validation_error');
    expect(await works(secrets[0]!)).toBe(200);
    expect((await stack.client().post(CONFIRM, { token, new_password: 'a fresh long passphrase' })).status).toBe(200);
  });
});
