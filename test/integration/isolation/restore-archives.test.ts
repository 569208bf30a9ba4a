import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { backupsPath } from '../../helpers/backups.ts';
import { execIn, execResult, operationOutcome } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import { treeSnapshot } from '../../helpers/tree.ts';
import { uploadedId } from '../../helpers/upload.ts';
import { zipArchive } from '../../helpers/zip.ts';

/**
 * What Berth unpacks for a tenant writes only inside that tenant's tree, whatever the tenant put in:
 * a snapshot restored (the tenant's tree held links to a host directory, to a host file by a
 * relative path climbing out, to /etc, a hard link pair, a fifo), and an uploaded plugin archive
 * whose entries climb out with `../`, name absolute paths, or are links followed by entries written
 * through them. A directory of the host (a stand-in for what root must never touch) is checked
 * unchanged, byte for byte, after each.
 */
let site: SiteOnNode;
let filesDir = '';
const host = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-restore-host-'));
const asTenant = (script: string) => execIn(environmentLayout(site.production).container, ['sh', '-euc', script], {}, WORDPRESS_RUNTIME.siteUser);

beforeAll(async () => {
  fs.writeFileSync(path.join(host, 'victim.txt'), 'a host file\n');
  fs.mkdirSync(path.join(host, 'nested'));
  fs.writeFileSync(path.join(host, 'nested/keep.conf'), 'host config\n');
  site = await startSiteOnNode('restore-archives');
  filesDir = path.join(site.node.dataDir, environmentLayout(site.production).filesDir);
}, 600_000);

afterAll(async () => {
  await site?.stop();
  fs.rmSync(host, { recursive: true, force: true });
}, 120_000);

describe('unpacking what a tenant made', () => {
  it('restores a tree of links out, hard links and a fifo as they were, writing nothing through any link', async () => {
    const climb = '../'.repeat(16);
    await asTenant(`
      mkdir -p wp-content/uploads/links && cd wp-content/uploads/links
      ln -s ${host} to-host-dir
      ln -s ${host}/victim.txt to-host-file
      ln -s ${climb}${host.slice(1)}/victim.txt relative-out
      ln -s /etc etc-link
      printf 'tenant text\\n' > a.txt && ln a.txt a-hard.txt
      mkfifo pipe
      mkdir 'dir with spaces' && printf x > 'dir with spaces/..x'`);
    const links = path.join(filesDir, 'wp-content/uploads/links');
    const hostBefore = treeSnapshot(host, { mtime: true });
    const treeThen = treeSnapshot(links);

    const backup = await site.stack.client().post(backupsPath(site.siteId), { note: 'links' }, site.bearer());
    await site.succeeded(backup);
    // the tenant moves on: the links go, and a link now stands where the directory was
    await asTenant(`rm -rf wp-content/uploads/links && ln -s ${host} wp-content/uploads/links`);
    await site.succeeded(await site.stack.client().post(`${backupsPath(site.siteId)}/${backup.body.data.backup.id}/restore`, {}, site.bearer()));

    expect(treeSnapshot(host, { mtime: true })).toEqual(hostBefore);
    expect(fs.lstatSync(links).isDirectory()).toBe(true);
    expect(treeSnapshot(links)).toEqual(treeThen);
    for (const [name, target] of [
      ['to-host-dir', host],
      ['to-host-file', `${host}/victim.txt`],
      ['relative-out', `${climb}${host.slice(1)}/victim.txt`],
      ['etc-link', '/etc'],
    ]) {
      expect(fs.lstatSync(path.join(links, name!)).isSymbolicLink(), name).toBe(true);
      expect(fs.readlinkSync(path.join(links, name!))).toBe(target);
    }
    expect(fs.statSync(path.join(links, 'a.txt')).ino).toBe(fs.statSync(path.join(links, 'a-hard.txt')).ino);
    expect(fs.lstatSync(path.join(links, 'pipe')).isFIFO()).toBe(true);
    // the site answers as before
    expect((await site.node.throughEdge(`http://${site.production.domain}/`)).status).toBe(200);
  }, 600_000);

  const climbing = {
    'evil/evil.php': '<?php\n/* Plugin Name: Evil archive */\n',
    '../../../../../../../../tmp/berth-zip-escape.txt': 'escaped by ../',
    '/tmp/berth-zip-absolute.txt': 'escaped by an absolute name',
    'evil/../../../berth-zip-up.php': '<?php // escaped by a name climbing out of its directory',
  };
  const linking = {
    ...climbing,
    'evil/host-link': { symlink: host },
    'evil/host-link/victim.txt': 'written through a link to the host',
    'evil/etc': { symlink: '/etc' },
    'evil/etc/berth-zip-written': 'written through a link to /etc',
  };
  it.each([
    ['climbing out with ../ and absolute names', climbing],
    ['also holding links with entries written through them', linking],
  ])(
    'installs an uploaded plugin archive %s, and nothing lands outside the plugin',
    async (_what, entries) => {
      const uploadId = await uploadedId(site.stack.client(), site.token, zipArchive(entries), 'evil.zip');
      const hostBefore = treeSnapshot(host, { mtime: true });
      const outside = (tree: Record<string, string>) =>
        Object.fromEntries(Object.entries(tree).filter(([entry]) => !entry.startsWith('wp-content/plugins/evil') && !entry.startsWith('wp-content/upgrade')));
      const treeBefore = outside(treeSnapshot(filesDir));

      const reply = await site.stack
        .client()
        .post(`/v1/sites/${site.siteId}/environments/production/plugins`, { upload_id: uploadId, overwrite: true }, site.bearer());
      expect(reply.status, JSON.stringify(reply.body)).toBe(202);
      const outcome = await operationOutcome(site.stack, site.token, reply.body.data.operation.id);
      console.log(`hostile plugin archive (${_what}): ${outcome.status} ${JSON.stringify(outcome.error?.message ?? outcome.result?.change ?? null)}`);
      // WordPress may refuse such an archive (a failed \`apply\`, saying why) or install its plugin: either way, nothing escapes
      if (outcome.status === 'failed') expect(outcome.error).toMatchObject({ step: 'apply', message: expect.stringContaining('plugin-install-zip') });
      else expect(outcome.status).toBe('succeeded');

      expect(treeSnapshot(host, { mtime: true })).toEqual(hostBefore);
      expect(outside(treeSnapshot(filesDir))).toEqual(treeBefore);
      const container = environmentLayout(site.production).container;
      for (const escaped of [
        '/tmp/berth-zip-escape.txt',
        '/tmp/berth-zip-absolute.txt',
        '/etc/berth-zip-written',
        '/var/www/berth-zip-up.php',
        `${WORDPRESS_RUNTIME.docroot}/berth-zip-up.php`,
        `${WORDPRESS_RUNTIME.docroot}/wp-content/berth-zip-up.php`,
      ]) {
        expect((await execResult(container, ['test', '-e', escaped])).exit_code, escaped).not.toBe(0);
      }
      expect(fs.existsSync('/tmp/berth-zip-escape.txt') || fs.existsSync('/tmp/berth-zip-absolute.txt')).toBe(false);
    },
    600_000,
  );
});
