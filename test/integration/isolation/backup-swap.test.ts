import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unseal } from '../../../shared/crypto/sealed.ts';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { renameExchangeBinary } from '../../helpers/attack/rename-exchange.ts';
import { backUp, downloadAndUnpack } from '../../helpers/backups.ts';
import { execIn } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';

/**
 * The attack of issue 19, made as a tenant can make it: inside its own site container, as www-data,
 * a program swaps directories of the site's tree with links to /proc/self (renameat2 with
 * RENAME_EXCHANGE, in a tight loop) while the platform backs the site up. Each directory holds files
 * named like /proc/self's (environ, status...): a backup process that follows a swapped-in link at
 * the wrong moment stores its own /proc/self/environ (once: the repository's password and the object
 * store's keys) in the tenant's archive, which the tenant then downloads. No archive may hold
 * anything but the environment's own tree and its database dump.
 */
const PAIRS = 24;
const BACKUPS = 10;
const PROC_NAMES = ['environ', 'status', 'cmdline', 'limits', 'mountinfo'];
const planted = (pair: number, name: string) => `tenant file d${pair}/${name}\n`;

let site: SiteOnNode;
let filesDir = '';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-backup-swap-'));
const inContainer = (relative: string) => `${WORDPRESS_RUNTIME.docroot}/${relative}`;

/**
 * Every repository password the control plane holds for this node (unsealed): none may appear in an
 * archive. Other files' stacks share the database with their own secret keys: only this node's rows.
 */
async function repositoryPasswords(): Promise<string[]> {
  const { db } = site.stack.ctx;
  const node = { node_id: site.node.nodeId };
  const rows = [
    ...(await db('backup_repositories').where(node).select('password_sealed')),
    // (before issue 19's fix there was no such table: the attack test ran against that code too)
    ...((await db.schema.hasTable('environment_backup_repositories')) ? await db('environment_backup_repositories').where(node).select('password_sealed') : []),
  ];
  return rows.map((row: { password_sealed: string }) => unseal(site.stack.ctx.config.secrets.secretKey, row.password_sealed));
}

/** The swapper's count of swaps so far (it writes it every 2,000 rounds). */
const swapsSoFar = () => Number(fs.readFileSync(path.join(filesDir, '.attack/count'), 'utf8').split(' ')[0]!.trim() || '0');

/** Starts the tenant's swapper (renameat2 RENAME_EXCHANGE of each raced directory with its link) in the site container, as www-data; waits for its first swap. */
async function startExchangeSwapper(): Promise<void> {
  fs.rmSync(path.join(filesDir, '.attack/stop'), { force: true });
  fs.writeFileSync(path.join(filesDir, '.attack/count'), '0\n');
  fs.chownSync(path.join(filesDir, '.attack/count'), 33, 33);
  const pairs = Array.from({ length: PAIRS }, (_, pair) => [
    inContainer(`wp-content/uploads/race/d${pair}`),
    inContainer(`wp-content/uploads/race/l${pair}`),
  ]).flat();
  await execIn(
    environmentLayout(site.production).container,
    [
      'sh',
      '-c',
      `nohup ${inContainer('.attack/rename-exchange')} ${inContainer('.attack/count')} ${inContainer('.attack/stop')} ${pairs.join(' ')} >/dev/null 2>&1 &`,
    ],
    {},
    WORDPRESS_RUNTIME.siteUser,
  );
  const started = Date.now();
  while (swapsSoFar() === 0) {
    if (Date.now() - started > 30_000) throw new Error('the swapper never reported a swap');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Stops the swapper where every pair is back in place (it checks for the stop file after an even number of rounds). */
async function stopExchangeSwapper(): Promise<void> {
  fs.writeFileSync(path.join(filesDir, '.attack/stop'), '');
  const started = Date.now();
  while (!fs.readFileSync(path.join(filesDir, '.attack/count'), 'utf8').includes('stopped')) {
    if (Date.now() - started > 30_000) throw new Error('the swapper did not stop');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (let pair = 0; pair < PAIRS; pair++) expect(fs.lstatSync(path.join(filesDir, `wp-content/uploads/race/d${pair}`)).isDirectory()).toBe(true);
}

/** The backup's download (as the tenant gets it) unpacked into a new directory; see downloadAndUnpack for tar's refusals. */
const unpackedBackup = async (backupId: string) => (await downloadAndUnpack(site, backupId, scratch, { tarErrors: 'ignore' })).dir;

/**
 * Everything in an unpacked archive that did not come from the environment's tree: an entry outside
 * data/files and the dump, a name in a raced directory the tenant never made, a file there whose
 * content is not what the tenant wrote, or any file holding a secret of the node.
 */
function foreignEntries(dir: string, secrets: string[]): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const name of fs.readdirSync(path.join(dir, relative))) {
      const entry = relative ? `${relative}/${name}` : name;
      const full = path.join(dir, entry);
      const stat = fs.lstatSync(full);
      const underTree = entry === 'data' || entry === 'data/files' || entry.startsWith('data/files/');
      const isDump = ['tmp', 'tmp/berth-backup', 'tmp/berth-backup/database.sql'].includes(entry);
      if (!underTree && !isDump) found.push(`${entry}: outside the tree`);
      const raced = /^data\/files\/wp-content\/uploads\/race\/d(\d+)\/(.+)$/.exec(entry);
      if (raced && !(PROC_NAMES.includes(raced[2]!) && stat.isFile() && fs.readFileSync(full, 'utf8') === planted(Number(raced[1]), raced[2]!)))
        found.push(`${entry}: not the tenant's`);
      if (stat.isFile() && entry !== 'tmp/berth-backup/database.sql') {
        const content = fs.readFileSync(full, 'latin1');
        for (const secret of secrets)
          if (content.includes(secret)) found.push(`${entry}: holds ${secret.startsWith('RESTIC') ? secret : 'a secret of the node'}`);
      }
      if (stat.isDirectory()) walk(entry);
    }
  };
  walk('');
  return found;
}

beforeAll(async () => {
  site = await startSiteOnNode('backup-swap', { plan: { backups_manual_keep: BACKUPS + 2 } });
  filesDir = path.join(site.node.dataDir, environmentLayout(site.production).filesDir);
  for (let pair = 0; pair < PAIRS; pair++) {
    const directory = path.join(filesDir, `wp-content/uploads/race/d${pair}`);
    fs.mkdirSync(directory, { recursive: true });
    for (const name of PROC_NAMES) fs.writeFileSync(path.join(directory, name), planted(pair, name));
    fs.symlinkSync('/proc/self', path.join(filesDir, `wp-content/uploads/race/l${pair}`));
  }
  fs.mkdirSync(path.join(filesDir, '.attack'));
  fs.copyFileSync(renameExchangeBinary(), path.join(filesDir, '.attack/rename-exchange'));
  fs.chmodSync(path.join(filesDir, '.attack/rename-exchange'), 0o755);
  for (const entry of ['.attack', '.attack/rename-exchange', 'wp-content/uploads/race']) fs.chownSync(path.join(filesDir, entry), 33, 33);
  fs.readdirSync(path.join(filesDir, 'wp-content/uploads/race')).forEach((name) => {
    const entry = path.join(filesDir, 'wp-content/uploads/race', name);
    fs.lchownSync(entry, 33, 33);
    if (name.startsWith('d')) for (const file of fs.readdirSync(entry)) fs.chownSync(path.join(entry, file), 33, 33);
  });
}, 600_000);

afterAll(async () => {
  if (site) await stopExchangeSwapper().catch(() => undefined);
  await site?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
}, 120_000);

describe('a backup under a tenant racing its tree with links to /proc/self', () => {
  it(`never stores anything from outside the environment's tree, in ${BACKUPS} backups taken while the swaps ran`, async () => {
    // read after each backup: the environment's repository (and its password) is made by the first
    const secrets = async () => ['RESTIC_PASSWORD', 'RESTIC_REPOSITORY', 'AWS_SECRET_ACCESS_KEY', ...(await repositoryPasswords())];
    await startExchangeSwapper();
    const outcomes: Array<{ status: string; swaps: number; foreign: string[] }> = [];
    for (let round = 0; round < BACKUPS; round++) {
      const before = swapsSoFar();
      const { backupId, outcome } = await backUp(site, { note: `under attack ${round}` });
      const swaps = swapsSoFar() - before;
      const foreign = outcome.status === 'succeeded' ? foreignEntries(await unpackedBackup(backupId), await secrets()) : [];
      outcomes.push({ status: outcome.status, swaps, foreign });
    }
    const succeeded = outcomes.filter((outcome) => outcome.status === 'succeeded').length;
    const leaked = outcomes.filter((outcome) => outcome.foreign.length > 0);
    console.log(
      `backup-swap: ${BACKUPS} backups under attack: ${succeeded} succeeded, ${BACKUPS - succeeded} failed, ${leaked.length} leaked; swaps during each: ${outcomes.map((outcome) => outcome.swaps).join(', ')}`,
    );
    await stopExchangeSwapper();
    // the race really ran during every backup
    for (const outcome of outcomes) expect(outcome.swaps).toBeGreaterThan(0);
    expect(leaked.flatMap((outcome) => outcome.foreign)).toEqual([]);

    // with the tenant stopped, a backup of the same tree succeeds and holds the tenant's own files
    const { backupId } = await backUp(site, { note: 'after the attack', mustSucceed: true });
    const dir = await unpackedBackup(backupId);
    // the check above looked for a real password
    expect((await secrets()).length).toBeGreaterThan(3);
    expect(foreignEntries(dir, await secrets())).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'data/files/wp-content/uploads/race/d3/environ'), 'utf8')).toBe(planted(3, 'environ'));
    expect(fs.readlinkSync(path.join(dir, 'data/files/wp-content/uploads/race/l3'))).toBe('/proc/self');
  }, 1_200_000);
});
