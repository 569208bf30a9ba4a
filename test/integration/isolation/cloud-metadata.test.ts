import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METADATA_IPV4, METADATA_IPV6, metadataTableName, subnetsOf } from '../../../agent/runtime/metadata-block.ts';
import { environmentLayout, nodeLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { freePort } from '../../helpers/free-port.ts';
import { docker, execResult } from '../../helpers/site-node.ts';
import { startSiteOnNode, type SiteOnNode } from '../../helpers/site-on-node.ts';
import { until } from '../../helpers/until.ts';

/**
 * On a cloud VM, 169.254.169.254 (and AWS's fd00:ec2::254) hands the instance's credentials to
 * whoever asks from the machine, so a tenant's PHP must not reach it. The test plays the metadata
 * service in a network namespace of its own that holds those addresses (and a control address),
 * routes the host to it, and asks from a real site container as www-data. A second fake service
 * on a link-local address of the host itself (on lo, like a metadata proxy) covers the input hook.
 * Only loopback and addresses inside the test's own namespace are ever sent traffic.
 */
const tag = randomBytes(3).toString('hex');
const NETNS = `berthmd-${tag}`;
const HOST_SIDE = `bmd${tag}h`;
const NS_SIDE = `bmd${tag}n`;
const HOST_ADDRESS = '198.18.77.1'; // benchmarking range: the host's end of the veth pair
const CONTROL_ADDRESS = '198.18.77.2'; // the same fake service on an ordinary address: the path works
const HOST_ADDRESS_V6 = 'fd00:77::1';
const METADATA = '169.254.169.254';
const METADATA_V6 = METADATA_IPV6;
const HOST_PROXY = '169.254.170.2'; // a link-local address of the host itself (ECS's credentials endpoint)
const CREDENTIALS_PATH = '/latest/meta-data/iam/security-credentials/berth-node';
const secret = `fake-secret-${randomBytes(12).toString('hex')}`;
const proxySecret = `fake-proxy-secret-${randomBytes(12).toString('hex')}`;

let site: SiteOnNode;
let container: string;
let table: string;
let server: ChildProcess | null = null;
const served: string[] = []; // "<local address> <path>" for each request the namespace's service got
let proxy: http.Server | null = null;
let proxyPort = 0;
const proxied: string[] = [];
let hostProxyAdded = false;

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

async function must(command: string, ...args: string[]): Promise<string> {
  const result = await run(command, args);
  if (result.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.code}: ${result.stderr.trim()}`);
  return result.stdout;
}

/** The fake metadata service: a namespace on a veth pair, holding the metadata addresses and the control address. */
async function startFakeMetadata(): Promise<void> {
  await must('ip', 'netns', 'add', NETNS);
  await must('ip', 'link', 'add', HOST_SIDE, 'type', 'veth', 'peer', 'name', NS_SIDE, 'netns', NETNS);
  await must('ip', 'link', 'set', HOST_SIDE, 'up');
  await must('ip', 'addr', 'add', `${HOST_ADDRESS}/32`, 'dev', HOST_SIDE);
  await must('ip', '-6', 'addr', 'add', `${HOST_ADDRESS_V6}/128`, 'dev', HOST_SIDE, 'nodad');
  for (const address of [METADATA, CONTROL_ADDRESS]) await must('ip', 'route', 'add', `${address}/32`, 'dev', HOST_SIDE, 'src', HOST_ADDRESS);
  await must('ip', '-6', 'route', 'add', `${METADATA_V6}/128`, 'dev', HOST_SIDE, 'src', HOST_ADDRESS_V6);
  const inside = (...args: string[]) => must('ip', '-n', NETNS, ...args);
  await inside('link', 'set', 'lo', 'up');
  await inside('link', 'set', NS_SIDE, 'up');
  for (const address of [METADATA, CONTROL_ADDRESS]) await inside('addr', 'add', `${address}/32`, 'dev', NS_SIDE);
  await inside('-6', 'addr', 'add', `${METADATA_V6}/128`, 'dev', NS_SIDE, 'nodad');
  await inside('route', 'add', `${HOST_ADDRESS}/32`, 'dev', NS_SIDE);
  await inside('route', 'add', 'default', 'via', HOST_ADDRESS, 'dev', NS_SIDE);
  await inside('-6', 'route', 'add', `${HOST_ADDRESS_V6}/128`, 'dev', NS_SIDE);
  await inside('-6', 'route', 'add', 'default', 'via', HOST_ADDRESS_V6, 'dev', NS_SIDE);
  // each request is logged before it is answered, so a request that arrived is in `served`
  const script = `
    const http = require('node:http');
    http.createServer((req, res) => {
      const local = req.socket.localAddress.replace(/^::ffff:/, '');
      process.stdout.write('REQ ' + local + ' ' + req.url + '\\n');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ Code: 'Success', AccessKeyId: 'AKIAFAKE', SecretAccessKey: process.env.FAKE_SECRET }));
    }).listen(80, '::', () => process.stdout.write('LISTENING\\n'));`;
  server = spawn('ip', ['netns', 'exec', NETNS, process.execPath, '-e', script], {
    env: { ...process.env, FAKE_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let listening = false;
  let buffered = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line === 'LISTENING') listening = true;
      else if (line.startsWith('REQ ')) served.push(line.slice(4));
    }
  });
  await until(async () => listening, 'the fake metadata service to listen', 15_000, 50);
}

/** A second fake service on a link-local address of the host's own lo (reached through the input hook). */
async function startHostProxy(): Promise<void> {
  await must('ip', 'addr', 'add', `${HOST_PROXY}/32`, 'dev', 'lo');
  hostProxyAdded = true;
  proxyPort = await freePort();
  proxy = http.createServer((req, res) => {
    proxied.push(req.url ?? '');
    res.end(JSON.stringify({ Token: proxySecret }));
  });
  await new Promise<void>((resolve) => proxy!.listen(proxyPort, HOST_PROXY, resolve));
}

function hostGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, timeout: 5_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
      })
      .on('error', reject)
      .on('timeout', function (this: http.ClientRequest) {
        this.destroy(new Error('timed out'));
      });
  });
}

/** A GET from the site's PHP as the tenant's www-data: the body, or `failed: <PHP's warning>`. */
async function tenantGet(url: string): Promise<{ exit: number; out: string }> {
  const php = `$context = stream_context_create(['http' => ['timeout' => 5]]);
    $body = @file_get_contents($argv[1], false, $context);
    if ($body === false) { echo 'failed: ', error_get_last()['message'] ?? 'unknown'; exit(3); }
    echo $body;`;
  const result = await execResult(container, ['php', '-r', php, url], {}, WORDPRESS_RUNTIME.siteUser);
  return { exit: result.exit_code, out: result.stdout + result.stderr };
}

/** The table as the host's nftables holds it (null: absent). */
async function listTable(): Promise<string | null> {
  const listed = await run('nft', ['list', 'table', 'inet', table]);
  return listed.code === 0 ? listed.stdout : null;
}

/** The packet counter of the rule whose text starts with `rule` (one line of `nft list table`); null: no such rule. */
async function counterOf(rule: string, listing: string | null = null): Promise<number | null> {
  listing ??= (await listTable()) ?? '';
  const line = listing
    .split('\n')
    .map((text) => text.trim())
    .find((text) => text.startsWith(`${rule} counter packets `));
  return line ? Number(/counter packets (\d+)/.exec(line)![1]) : null;
}

/**
 * The forward rule's packets over every node network's table on this host. Forward rules refuse by
 * destination whatever the source, so when tests run other nodes at the same time, whichever
 * table's chain the kernel runs first refuses (and counts) the packet: this node's own table must
 * exist (checked apart), and some Berth table must have counted the refusal.
 */
async function forwardCounterOnHost(rule: string): Promise<number> {
  const tables = (await run('nft', ['list', 'tables', 'inet'])).stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/).at(-1) ?? '')
    .filter((name) => name.startsWith('berth_metadata_'));
  let total = 0;
  for (const name of tables) {
    const listed = await run('nft', ['list', 'table', 'inet', name]);
    if (listed.code === 0) total += (await counterOf(rule, listed.stdout)) ?? 0;
  }
  return total;
}

/** The rule counted the packets refused between `before` and now. */
async function expectCounted(rule: string, before: number | null): Promise<void> {
  expect(before, `no rule "${rule}" in ${table}`).not.toBeNull();
  expect(await counterOf(rule)).toBeGreaterThan(before!);
}

/** The node network's IPv4 subnet, as the engine gives it. */
async function nodeSubnet(): Promise<string> {
  const [subnet] = subnetsOf(await docker.getNetwork(nodeLayout(site.node.nodeId).network).inspect()).ipv4;
  if (!subnet) throw new Error('the node network has no IPv4 subnet');
  return subnet;
}

/** How many requests the namespace's service got at `address` (counted in `served`). */
const servedCount = (address: string) => served.filter((entry) => entry.startsWith(`${address} `)).length;

/**
 * A request to the control address from the tenant, waited for in the service's log: everything the
 * service got before it is logged too, so what is absent from `served` never arrived.
 */
async function barrier(): Promise<void> {
  const before = servedCount(CONTROL_ADDRESS);
  const control = await tenantGet(`http://${CONTROL_ADDRESS}${CREDENTIALS_PATH}`);
  expect(control.out).toContain(secret);
  await until(async () => servedCount(CONTROL_ADDRESS) > before, 'the control request in the service log', 5_000, 20);
}

/** The tenant asks the metadata address: refused, no credentials, nothing reached the service, and the block's rule counted it. */
async function expectBlocked(): Promise<void> {
  const rule = `ip daddr ${METADATA_IPV4}`;
  expect(await counterOf(rule), `no rule "${rule}" in ${table}`).not.toBeNull();
  const before = { served: servedCount(METADATA), counter: await forwardCounterOnHost(rule) };
  const attempt = await tenantGet(`http://${METADATA}${CREDENTIALS_PATH}`);
  expect(attempt.out).not.toContain(secret);
  expect(attempt.exit, attempt.out).toBe(3);
  expect(attempt.out).toMatch(/failed: .*(No route to host|Connection refused|Network is unreachable|timed out)/i);
  await barrier();
  expect(servedCount(METADATA)).toBe(before.served);
  expect(await forwardCounterOnHost(rule)).toBeGreaterThan(before.counter);
}

beforeAll(async () => {
  site = await startSiteOnNode('cloud-metadata');
  container = environmentLayout(site.production).container;
  table = metadataTableName(nodeLayout(site.node.nodeId).network);
  await startFakeMetadata();
  await startHostProxy();
}, 600_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  if (hostProxyAdded) await run('ip', ['addr', 'del', `${HOST_PROXY}/32`, 'dev', 'lo']);
  // the veth pair goes with its host end; the routes through it with the pair
  await run('ip', ['link', 'del', HOST_SIDE]);
  await run('ip', ['netns', 'del', NETNS]);
  await site?.stop();
  // the node's network is gone: its table protects nothing (a later agent's reconcile would prune it too)
  if (table) await run('nft', ['delete', 'table', 'inet', table]);
}, 240_000);

describe('site containers cannot reach cloud metadata addresses', () => {
  it('lists the block on the host for the node network: link-local IPv4 and fd00:ec2::254 in the forward hook, the network subnet in the input hook', async () => {
    const listing = await listTable();
    expect(listing, `no table ${table}`).not.toBeNull();
    const subnet = await nodeSubnet();
    expect(listing).toMatch(/chain forward \{\s+type filter hook forward priority filter - 10; policy accept;/);
    expect(listing).toMatch(/chain input \{\s+type filter hook input priority filter - 10; policy accept;/);
    for (const rule of [
      `ip daddr ${METADATA_IPV4}`,
      `ct original ip daddr ${METADATA_IPV4}`,
      `ip6 daddr ${METADATA_IPV6}`,
      `ct original ip6 daddr ${METADATA_IPV6}`,
      `ip saddr ${subnet} ip daddr ${METADATA_IPV4}`,
      `ip saddr ${subnet} ct original ip daddr ${METADATA_IPV4}`,
    ]) {
      expect(listing).toContain(`${rule} counter packets`);
    }
    expect(listing!.match(/reject with icmpx admin-prohibited/g)).toHaveLength(6);
  });

  it("gives the host the fake credentials (positive control) but the tenant's PHP none, though the same container reaches the same service on an ordinary address", async () => {
    // the host reaches the fake service on both metadata addresses: the namespace and the routes work
    expect(await hostGet(`http://${METADATA}${CREDENTIALS_PATH}`)).toContain(secret);
    expect(await hostGet(`http://[${METADATA_V6}]${CREDENTIALS_PATH}`)).toContain(secret);
    expect(servedCount(METADATA)).toBe(1);
    expect(servedCount(METADATA_V6)).toBe(1);
    // the container's path to the service works (forwarding, NAT, the way back) ...
    await barrier();
    // ... and only the metadata address is refused
    await expectBlocked();
    // IPv6: the node network has no IPv6, so this fails before the block; it must fail all the same
    const v6 = await tenantGet(`http://[${METADATA_V6}]${CREDENTIALS_PATH}`);
    expect(v6.exit, v6.out).toBe(3);
    expect(v6.out).not.toContain(secret);
    await barrier();
    expect(servedCount(METADATA_V6)).toBe(1);
  });

  it('refuses a link-local address the host holds itself (a metadata proxy on the host) while the host reaches it', async () => {
    const url = `http://${HOST_PROXY}:${proxyPort}/credentials`;
    expect(await hostGet(url)).toContain(proxySecret);
    expect(proxied).toHaveLength(1);
    const inputRule = `ip saddr ${await nodeSubnet()} ip daddr ${METADATA_IPV4}`;
    const before = await counterOf(inputRule);
    const attempt = await tenantGet(url);
    expect(attempt.out).not.toContain(proxySecret);
    expect(attempt.exit, attempt.out).toBe(3);
    await expectCounted(inputRule, before);
    // the proxy answers in this process: a request that reached it would be in `proxied` by now
    expect(await hostGet(url)).toContain(proxySecret);
    expect(proxied).toHaveLength(2);
  });

  it('still refuses after the site container restarts', async () => {
    const before = (await docker.getContainer(container).inspect()).State.StartedAt;
    await docker.getContainer(container).restart({ t: 5 });
    const after = await docker.getContainer(container).inspect();
    expect(after.State.Running).toBe(true);
    expect(after.State.StartedAt).not.toBe(before);
    await until(
      async () => (await execResult(container, ['php', '-r', 'echo "up";'], {}, WORDPRESS_RUNTIME.siteUser)).stdout === 'up',
      'the restarted container to run PHP',
    );
    await expectBlocked();
  });

  it('makes a block wiped on the host again when the agent starts', async () => {
    await site.node.stopAgent();
    await must('nft', 'delete', 'table', 'inet', table);
    expect(await listTable()).toBeNull();
    await site.node.restartAgent();
    const listing = await until(listTable, `the agent to make ${table} again`, 30_000, 200);
    expect(listing.match(/reject with icmpx admin-prohibited/g)).toHaveLength(6);
    await expectBlocked();
  });
});
