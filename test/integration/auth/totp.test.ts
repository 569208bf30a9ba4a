import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '../../../shared/crypto/sealed.ts';
import { totpStep } from '../../../shared/domains/auth/totp/totp-code.ts';
import type { Client, Reply, RequestOptions } from '../../helpers/client.ts';
import { expectAuthError } from '../../helpers/expect-error.ts';
import { createOwner, login, signedInClient, unique, type TestUser } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { wrongCode } from '../../helpers/wrong-code.ts';
import { codeAt, currentCode, oathtool } from '../../helpers/totp-codes.ts';

const AUTH = '/api/v1/auth';
/** Tests that may wait for a fresh 30-second step. */
const STEP_BOUND = 45_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

// ---- helpers -------------------------------------------------------------------------------------

/** The current step, once at least `seconds` are left in it (waits for the next step otherwise), so offsets stay true. */
async function stepWithRoom(seconds: number): Promise<number> {
  const leftMs = 30_000 - (Date.now() % 30_000);
  if (leftMs < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, leftMs + 100));
  return totpStep(Date.now());
}

const setup = (client: Client, options: RequestOptions = {}) => client.post(`${AUTH}/totp/setup`, undefined, options);
const verify = (client: Client, code: unknown) => client.post(`${AUTH}/totp/verify`, { totp_code: code });
const useBackup = (client: Client, code: unknown) => client.post(`${AUTH}/totp/backup`, { backup_code: code });
const authMe = (client: Client) => client.get(`${AUTH}/me`);

/** An owner whose team lets one user hold several sessions: these tests sign the same user in many times. */
async function owner(overrides: { email?: string } = {}): Promise<TestUser> {
  const user = await createOwner(stack.ctx.db, overrides);
  await stack.ctx
    .db('teams')
    .where({ id: user.teamId })
    .update({ settings: { concurrent_sessions: 'allow' } });
  return user;
}

async function userRow(userId: number) {
  return stack.ctx.db('users').where({ id: userId }).first();
}

async function backupRows(userId: number) {
  return stack.ctx.db('totp_backup_codes').where({ user_id: userId }).orderBy('id');
}

/**
 * A user with TOTP enabled through the API: setup, then oathtool's code of the previous step (so the
 * current step's code is still unused). `client` is the session that enrolled, fully signed in.
 */
async function enrolled() {
  const user = await owner();
  const { client } = await signedInClient(stack, { user });
  const started = await setup(client);
  expect(started.status).toBe(200);
  const secret: string = started.body.secret;
  const step = await stepWithRoom(2);
  const enabled = await verify(client, codeAt(secret, step - 1));
  expect(enabled.status).toBe(200);
  return { user, client, secret, backupCodes: started.body.backup_codes as string[] };
}

/** A new sign-in of a user with TOTP on: its session waits for the second factor. */
async function pendingSession(user: TestUser): Promise<Client> {
  const { client } = await signedInClient(stack, { user });
  expectAuthError(await authMe(client), 401, 'totp_required');
  return client;
}

// ---- POST /totp/setup ----------------------------------------------------------------------------

describe('POST /totp/setup', () => {
  it('answers a 160-bit base32 secret, its otpauth URI and ten 8-digit backup codes', async () => {
    const user = await owner();
    const reply = await setup((await signedInClient(stack, { user })).client);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['backup_codes', 'qr_code_url', 'secret']);
    expect(reply.body.secret).toMatch(/^[A-Z2-7]{32}$/); // 32 base32 characters = 160 bits
    expect(reply.body.backup_codes).toHaveLength(10);
    expect(new Set(reply.body.backup_codes).size).toBe(10);
    for (const code of reply.body.backup_codes) expect(code).toMatch(/^\d{8}$/);
  });

  it('labels the URI Berth:<e-mail> with issuer, algorithm, digits and period', async () => {
    const user = await owner({ email: `${unique('ann+2fa')}@example.test` });
    const reply = await setup((await signedInClient(stack, { user })).client);
    const uri = new URL(reply.body.qr_code_url);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Berth:${user.email}`);
    expect(reply.body.qr_code_url).toContain(`/Berth:${encodeURIComponent(user.email)}?`);
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: reply.body.secret, issuer: 'Berth', algorithm: 'SHA1', digits: '6', period: '30' });
  });

  it('stores the secret sealed and pending, and the backup codes hashed and pending', async () => {
    const user = await owner();
    const reply = await setup((await signedInClient(stack, { user })).client);
    const row = await userRow(user.userId);
    expect(row.totp_pending_secret_sealed).toMatch(/^v1\./);
    expect(row.totp_pending_secret_sealed).not.toContain(reply.body.secret);
    expect(unseal(stack.ctx.config.secrets.secretKey, row.totp_pending_secret_sealed)).toBe(reply.body.secret);
    expect({ live: row.totp_secret_sealed, enabled: row.totp_enabled_at }).toEqual({ live: null, enabled: null });
    const codes = await backupRows(user.userId);
    expect(codes).toHaveLength(10);
    const stored = JSON.stringify(codes);
    for (const code of reply.body.backup_codes) expect(stored).not.toContain(code);
    for (const code of codes) expect(code).toMatchObject({ pending: true, used_at: null, code_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('called again, replaces the pending secret and codes; only the newest secret enables TOTP', async () => {
    const user = await owner();
    const { client } = await signedInClient(stack, { user });
    const first = await setup(client);
    const second = await setup(client);
    expect(second.body.secret).not.toBe(first.body.secret);
    expect(await backupRows(user.userId)).toHaveLength(10);
    expectAuthError(await verify(client, currentCode(first.body.secret)), 401, 'not_authenticated');
    expect((await verify(client, currentCode(second.body.secret))).status).toBe(200);
  });

  it('needs a session (401) and CSRF (403), and a refused setup stores nothing', async () => {
    expectAuthError(await setup(stack.client()), 401, 'not_authenticated');
    const user = await owner();
    const { client } = await signedInClient(stack, { user });
    expectAuthError(await setup(client, { csrf: false }), 403, 'csrf_mismatch');
    expectAuthError(await setup(client, { origin: 'https://evil.example' }), 403, 'csrf_mismatch');
    expect((await userRow(user.userId)).totp_pending_secret_sealed).toBeNull();
    expect(await backupRows(user.userId)).toHaveLength(0);
  });

  it(
    'answers 422 once TOTP is enabled',
    async () => {
      const { client } = await enrolled();
      expectAuthError(await setup(client), 422, 'validation_error');
    },
    STEP_BOUND,
  );
});

// ---- enrolment: POST /totp/verify ----------------------------------------------------------------

describe('enrolment with POST /totp/verify', () => {
  it('enables TOTP with a code computed by `oathtool --totp -b <secret>`', async () => {
    const user = await owner();
    const { client } = await signedInClient(stack, { user });
    const { secret } = (await setup(client)).body;
    const reply = await verify(client, oathtool(['--totp', '-b', secret]));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: expect.stringMatching(/enabled/) });

    const row = await userRow(user.userId);
    expect(unseal(stack.ctx.config.secrets.secretKey, row.totp_secret_sealed)).toBe(secret);
    expect(row.totp_pending_secret_sealed).toBeNull();
    expect(row.totp_enabled_at).not.toBeNull();
    expect((await backupRows(user.userId)).map((code) => code.pending)).toEqual(Array(10).fill(false));
    expect((await authMe(client)).status).toBe(200); // the session that enrolled stays signed in
  });

  it('leaves TOTP off after a wrong code, and counts the failure', async () => {
    const user = await owner();
    const { client } = await signedInClient(stack, { user });
    const { secret } = (await setup(client)).body;
    expectAuthError(
      await verify(
        client,
        wrongCode((step) => codeAt(secret, step)),
      ),
      401,
      'not_authenticated',
    );
    const row = await userRow(user.userId);
    expect({ enabled: row.totp_enabled_at, failures: row.failed_auth_count }).toEqual({ enabled: null, failures: 1 });
    expect((await backupRows(user.userId)).every((code) => code.pending)).toBe(true);
  });

  it('rejects codes that are not 6 digits with 422, without counting a failure', async () => {
    const user = await owner();
    const { client } = await signedInClient(stack, { user });
    await setup(client);
    for (const code of ['12345', '1234567', 'abcdef', '12 456', 123456, null, '']) {
      const reply = await verify(client, code);
      expect({ code, status: reply.status, error: reply.body?.code }).toEqual({ code, status: 422, error: 'validation_error' });
    }
    expectAuthError(await client.post(`${AUTH}/totp/verify`, {}), 422, 'validation_error');
    expect((await userRow(user.userId)).failed_auth_count).toBe(0);
  });

  it('answers 422 when there is no setup to finish', async () => {
    const { client } = await signedInClient(stack, { user: await owner() });
    expectAuthError(await verify(client, '123456'), 422, 'validation_error');
  });

  it('needs CSRF', async () => {
    const user = await owner();
    const { client } = await signedInClient(stack, { user });
    const { secret } = (await setup(client)).body;
    const reply = await client.post(`${AUTH}/totp/verify`, { totp_code: currentCode(secret) }, { csrf: false });
    expectAuthError(reply, 403, 'csrf_mismatch');
    expect((await userRow(user.userId)).totp_enabled_at).toBeNull();
  });
});

// ---- sign-in with TOTP on ------------------------------------------------------------------------

describe('a session waiting for its second factor', () => {
  it(
    'is what a new sign-in gets: /me and /totp/setup answer 401 totp_required',
    async () => {
      const { user } = await enrolled();
      const { client } = await signedInClient(stack, { user });
      expectAuthError(await authMe(client), 401, 'totp_required');
      expectAuthError(await setup(client), 401, 'totp_required');
      const session = await stack.ctx.db('sessions').where({ user_id: user.userId }).orderBy('created_at', 'desc').first();
      expect(session.second_factor_pending).toBe(true);
    },
    STEP_BOUND,
  );

  it(
    'is completed by a current code: /me answers 200',
    async () => {
      const { user, secret } = await enrolled();
      const client = await pendingSession(user);
      const reply = await verify(client, currentCode(secret));
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ message: expect.stringMatching(/signed in/) });
      const current = await authMe(client);
      expect(current.status).toBe(200);
      expect(current.body.user_id).toBe(user.userId);
    },
    STEP_BOUND,
  );

  it(
    'accepts a code once: the same code again in its step answers 401',
    async () => {
      const { user, secret } = await enrolled();
      const code = currentCode(secret);
      expect((await verify(await pendingSession(user), code)).status).toBe(200);
      const other = await pendingSession(user);
      expectAuthError(await verify(other, code), 401, 'not_authenticated');
      expectAuthError(await authMe(other), 401, 'totp_required');
    },
    STEP_BOUND,
  );

  it(
    'accepts one step of skew either side and refuses two',
    async () => {
      const { user, secret } = await enrolled();
      // Forget the enrolment's step, so only the window decides here.
      await stack.ctx.db('users').where({ id: user.userId }).update({ totp_last_used_step: null });
      const now = await stepWithRoom(10);
      const client = await pendingSession(user);
      for (const offset of [-2, 2]) expectAuthError(await verify(client, codeAt(secret, now + offset)), 401, 'not_authenticated');
      expectAuthError(await authMe(client), 401, 'totp_required');
      expect((await verify(client, codeAt(secret, now - 1))).status).toBe(200);
      expect((await verify(await pendingSession(user), codeAt(secret, now + 1))).status).toBe(200);
      expect((await userRow(user.userId)).totp_last_used_step).toBe(now + 1);
    },
    STEP_BOUND,
  );

  it(
    'can refresh, but the new access token still waits for the second factor',
    async () => {
      const { user, secret } = await enrolled();
      const client = await pendingSession(user);
      const refreshed = await client.post(`${AUTH}/refresh`);
      expect(refreshed.status).toBe(200);
      expectAuthError(await authMe(client), 401, 'totp_required');
      expect((await verify(client, currentCode(secret))).status).toBe(200);
      expect((await authMe(client)).status).toBe(200);
    },
    STEP_BOUND,
  );

  it(
    'can log out, which ends it',
    async () => {
      const { user, secret } = await enrolled();
      const client = await pendingSession(user);
      const cookies = [...client.jar].map(([name, value]) => `${name}=${value}`).join('; ');
      const csrf = client.jar.get('svc_csrf')!;
      expect((await client.post(`${AUTH}/logout`)).status).toBe(200);
      expect((await stack.ctx.db('sessions').where({ user_id: user.userId }).orderBy('created_at', 'desc').first()).revoked_at).not.toBeNull();
      // The cookies of the ended session no longer reach the second factor.
      const headers = { cookie: cookies, 'x-csrf-token': csrf };
      const replayed = await stack.client().post(`${AUTH}/totp/verify`, { totp_code: currentCode(secret) }, { headers });
      expectAuthError(replayed, 401, 'not_authenticated');
    },
    STEP_BOUND,
  );

  it(
    "is completed alone: the user's other waiting sessions keep waiting",
    async () => {
      const { user, secret } = await enrolled();
      const first = await pendingSession(user);
      const second = await pendingSession(user);
      expect((await verify(first, currentCode(secret))).status).toBe(200);
      expect((await authMe(first)).status).toBe(200);
      expectAuthError(await authMe(second), 401, 'totp_required');
    },
    STEP_BOUND,
  );

  it(
    'on a session that waits for nothing, a valid code is only checked',
    async () => {
      const { client, secret } = await enrolled();
      const reply = await verify(client, currentCode(secret));
      expect(reply.status).toBe(200);
      expect(reply.body.message).toMatch(/valid/);
    },
    STEP_BOUND,
  );
});

// ---- POST /totp/backup ---------------------------------------------------------------------------

describe('POST /totp/backup', () => {
  it(
    'completes a waiting session with a backup code, which then is used up',
    async () => {
      const { user, backupCodes } = await enrolled();
      const client = await pendingSession(user);
      const reply = await useBackup(client, backupCodes[3]);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ message: expect.any(String) });
      expect((await authMe(client)).status).toBe(200);
      expect((await backupRows(user.userId)).filter((code) => code.used_at !== null)).toHaveLength(1);

      const again = await pendingSession(user);
      expectAuthError(await useBackup(again, backupCodes[3]), 401, 'not_authenticated');
      expectAuthError(await authMe(again), 401, 'totp_required');
      expect((await useBackup(again, backupCodes[4])).status).toBe(200);
    },
    STEP_BOUND,
  );

  it(
    'lets exactly one of two parallel uses of one code through',
    async () => {
      const { user, backupCodes } = await enrolled();
      const [laptop, phone] = [await pendingSession(user), await pendingSession(user)];
      const replies = await Promise.all([useBackup(laptop, backupCodes[0]), useBackup(phone, backupCodes[0])]);
      expect(replies.map((reply) => reply.status).sort()).toEqual([200, 401]);
      const meStatuses = [(await authMe(laptop)).status, (await authMe(phone)).status].sort();
      expect(meStatuses).toEqual([200, 401]);
      expect((await backupRows(user.userId)).filter((code) => code.used_at !== null)).toHaveLength(1);
    },
    STEP_BOUND,
  );

  it('does not take the codes of a setup that is not verified yet', async () => {
    const user = await owner();
    const { client } = await signedInClient(stack, { user });
    const first = (await setup(client)).body;
    const second = (await setup(client)).body;
    expectAuthError(await useBackup(client, second.backup_codes[0]), 401, 'not_authenticated');
    expect((await backupRows(user.userId)).every((code) => code.used_at === null)).toBe(true);

    expect((await verify(client, currentCode(second.secret))).status).toBe(200);
    const waiting = await pendingSession(user);
    expectAuthError(await useBackup(waiting, first.backup_codes[0]), 401, 'not_authenticated'); // replaced before it was ever live
    expect((await useBackup(waiting, second.backup_codes[0])).status).toBe(200); // the same code, live now
  });

  it(
    'rejects codes that are not 8 digits with 422',
    async () => {
      const { user } = await enrolled();
      const client = await pendingSession(user);
      for (const code of ['1234567', '123456789', 'abcdefgh', 12345678, '']) {
        const reply = await useBackup(client, code);
        expect({ code, status: reply.status, error: reply.body?.code }).toEqual({ code, status: 422, error: 'validation_error' });
      }
    },
    STEP_BOUND,
  );

  it(
    'needs a session and CSRF',
    async () => {
      const { user, backupCodes } = await enrolled();
      expectAuthError(await useBackup(stack.client(), backupCodes[0]), 401, 'not_authenticated');
      const client = await pendingSession(user);
      expectAuthError(await client.post(`${AUTH}/totp/backup`, { backup_code: backupCodes[0] }, { csrf: false }), 403, 'csrf_mismatch');
      expect((await backupRows(user.userId)).every((code) => code.used_at === null)).toBe(true);
    },
    STEP_BOUND,
  );
});

// ---- the account throttle ------------------------------------------------------------------------

describe('the account throttle on second factors', () => {
  const endLock = (userId: number) =>
    stack.ctx
      .db('users')
      .where({ id: userId })
      .update({ locked_until: new Date(Date.now() - 1000) });

  it(
    'locks after 5 wrong codes: a right code and the right password then fail exactly like wrong ones',
    async () => {
      const { user, secret } = await enrolled();
      const client = await pendingSession(user);
      const wrong: Reply[] = [];
      for (let attempt = 0; attempt < 5; attempt++)
        wrong.push(
          await verify(
            client,
            wrongCode((step) => codeAt(secret, step)),
          ),
        );
      for (const reply of wrong) expectAuthError(reply, 401, 'not_authenticated');

      const rightWhileLocked = await verify(client, currentCode(secret));
      expect({ status: rightWhileLocked.status, body: rightWhileLocked.body }).toEqual({ status: 401, body: wrong[0]!.body });
      expectAuthError(await authMe(client), 401, 'totp_required');

      const wrongPassword = await login(stack.client(), { email: user.email, password: 'not the password' });
      const rightPassword = await login(stack.client(), user);
      expectAuthError(wrongPassword, 401, 'not_authenticated');
      expect({ status: rightPassword.status, body: rightPassword.body }).toEqual({ status: 401, body: wrongPassword.body });

      const locked = await userRow(user.userId);
      expect(locked.failed_auth_count).toBe(5); // attempts while locked are not even judged
      expect(new Date(locked.locked_until).getTime() - Date.now()).toBeGreaterThan(50_000);

      await endLock(user.userId);
      expect((await verify(client, currentCode(secret))).status).toBe(200);
      expect((await authMe(client)).status).toBe(200);
      const reset = await userRow(user.userId);
      expect({ failures: reset.failed_auth_count, lockedUntil: reset.locked_until }).toEqual({ failures: 0, lockedUntil: null });
    },
    STEP_BOUND,
  );

  it(
    'counts wrong backup codes too, and a locked account keeps a right backup code unused',
    async () => {
      const { user, backupCodes } = await enrolled();
      const client = await pendingSession(user);
      const notIssued = ['00000000', '11111111', '22222222', '33333333', '44444444', '55555555'].filter((code) => !backupCodes.includes(code));
      const wrong: Reply[] = [];
      for (const code of notIssued.slice(0, 5)) wrong.push(await useBackup(client, code));
      for (const reply of wrong) expectAuthError(reply, 401, 'not_authenticated');

      const rightWhileLocked = await useBackup(client, backupCodes[0]);
      expect({ status: rightWhileLocked.status, body: rightWhileLocked.body }).toEqual({ status: 401, body: wrong[0]!.body });
      expect((await backupRows(user.userId)).every((code) => code.used_at === null)).toBe(true);

      await endLock(user.userId);
      expect((await useBackup(client, backupCodes[0])).status).toBe(200);
      expect((await userRow(user.userId)).failed_auth_count).toBe(0);
    },
    STEP_BOUND,
  );

  it(
    'adds up failures of every factor, and locks longer after the first lock',
    async () => {
      const { user, secret } = await enrolled();
      for (let attempt = 0; attempt < 3; attempt++)
        expectAuthError(await login(stack.client(), { email: user.email, password: 'not the password' }), 401, 'not_authenticated');
      const client = await pendingSession(user); // a right password does not reset the count; only a completed sign-in does
      expect((await userRow(user.userId)).failed_auth_count).toBe(3);
      for (let attempt = 0; attempt < 2; attempt++)
        expectAuthError(
          await verify(
            client,
            wrongCode((step) => codeAt(secret, step)),
          ),
          401,
          'not_authenticated',
        );
      expectAuthError(await login(stack.client(), user), 401, 'not_authenticated');

      await endLock(user.userId);
      expectAuthError(
        await verify(
          client,
          wrongCode((step) => codeAt(secret, step)),
        ),
        401,
        'not_authenticated',
      );
      const relocked = await userRow(user.userId);
      expect(relocked.failed_auth_count).toBe(6);
      const lockMs = new Date(relocked.locked_until).getTime() - Date.now();
      expect(lockMs).toBeGreaterThan(110_000);
      expect(lockMs).toBeLessThanOrEqual(120_000);
    },
    STEP_BOUND,
  );

  it(
    'judges a burst of 20 parallel wrong codes one at a time: exactly 5 count, then the lock holds',
    async () => {
      const { user, secret } = await enrolled();
      const client = await pendingSession(user);
      const code = wrongCode((step) => codeAt(secret, step));
      const replies = await Promise.all(Array.from({ length: 20 }, () => verify(client, code)));
      expect(new Set(replies.map((reply) => JSON.stringify([reply.status, reply.body])))).toEqual(new Set([JSON.stringify([401, replies[0]!.body])]));
      expect(replies[0]!.body.code).toBe('not_authenticated');
      expect((await userRow(user.userId)).failed_auth_count).toBe(5);
      expectAuthError(await verify(client, currentCode(secret)), 401, 'not_authenticated');
    },
    STEP_BOUND,
  );
});
