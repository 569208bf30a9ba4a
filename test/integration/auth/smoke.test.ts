import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOwner, signIn } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('smoke', () => {
  it('signs in and reads /me', async () => {
    const owner = await createOwner(stack.ctx.db);
    const client = stack.client();
    await signIn(client, owner);
    const me = await client.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(owner.userId);
  });
});
