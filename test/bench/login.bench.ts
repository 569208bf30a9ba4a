/**
 * What `POST /v1/auth/login` costs against its floor, one argon2id verification with the parameters
 * the code hashes with (shared/crypto/passwords.ts), measured alternately in one run: a login to the
 * API in its own process (`node cli/berth.ts api`), then one verify of the same user's stored hash in
 * this process, and again. Both are p50 of sequential calls (a login is latency, not throughput).
 *   npm run bench -- test/bench/login.bench.ts      (BENCH_LOGINS, default 40)
 */
import { createDb } from '../../shared/db/knex.ts';
import { verifyPassword } from '../../shared/crypto/passwords.ts';
import { createOwner, deviceFingerprint } from '../helpers/factories.ts';
import { startBenchApi } from './load/bench-api.ts';

const logins = Number(process.env.BENCH_LOGINS ?? 40);
const GOAL = 1.3;

const api = await startBenchApi();
const db = createDb(api.databaseUrl, { poolMax: 2 });
try {
  const owner = await createOwner(db);
  const { password_hash: hash } = (await db('users').where({ id: owner.userId }).first('password_hash')) as { password_hash: string };
  const body = JSON.stringify({ email: owner.email, password: owner.password, device_fingerprint: deviceFingerprint });
  const login = async () => {
    const reply = await fetch(`${api.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await reply.arrayBuffer();
    if (reply.status !== 200) throw new Error(`login answered ${reply.status}`);
  };
  const timed = async (call: () => Promise<unknown>) => {
    const started = performance.now();
    await call();
    return performance.now() - started;
  };
  for (let i = 0; i < 5; i += 1) await Promise.all([login(), verifyPassword(hash, owner.password)]); // warm up
  const loginMs: number[] = [];
  const verifyMs: number[] = [];
  for (let i = 0; i < logins; i += 1) {
    loginMs.push(await timed(login));
    verifyMs.push(await timed(() => verifyPassword(hash, owner.password)));
  }
  const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
  const ratio = p50(loginMs) / p50(verifyMs);
  console.log(`\nPOST /v1/auth/login, ${logins} sequential logins alternating with as many argon2id verifications (API in its own process)`);
  console.log(
    'measured'.padEnd(22),
    'p50 ms'.padStart(8),
    'floor'.padEnd(28),
    'p50 ms'.padStart(8),
    'ratio'.padStart(7),
    'goal'.padStart(7),
    'met'.padStart(4),
  );
  console.log(
    'POST /v1/auth/login'.padEnd(22),
    p50(loginMs).toFixed(1).padStart(8),
    'one argon2id verify'.padEnd(28),
    p50(verifyMs).toFixed(1).padStart(8),
    `${ratio.toFixed(2)}x`.padStart(7),
    `≤ ${GOAL}x`.padStart(7),
    (ratio <= GOAL ? 'yes' : 'no').padStart(4),
  );
} finally {
  await db.destroy();
  await api.stop();
}
