import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { NetworkInspectInfo } from 'dockerode';
import { LABELS } from '../../shared/agent-protocol/labels.ts';
import { CommandFailure } from '../commands/failure.ts';
import { isNotFound, type Docker } from './docker.ts';

/**
 * Cloud metadata services (instance credentials) answer on link-local addresses: 169.254.169.254 for
 * every major cloud, fd00:ec2::254 for AWS over IPv6. A container on a cloud VM reaches them through
 * the host unless the host refuses, so the agent keeps one nftables table per node network that
 * rejects, in the host's forward hook, everything bound for 169.254.0.0/16 or fd00:ec2::254 (from any
 * container: link-local is never routed, RFC 3927, so nothing legitimate is forwarded there), and in
 * the input hook what the network's subnets send to such an address held by the host itself (a
 * metadata proxy on the host). `ct original` catches the same destinations after a DNAT on the host.
 *
 * Why this design and not per-container routes: the rule lives on the host, keyed by destination and
 * by the network's subnet, so it holds for every container on the network (sites, backups, edge,
 * MariaDB) from the moment the network exists, whatever containers are restarted or recreated, and
 * nobody inside a container can touch it (they lack NET_ADMIN, and the rule is not in their
 * namespace). A table of its own (not a chain among netavark's or Docker's iptables rules) is not
 * rewritten when the engine reloads its own rules, works whichever iptables backend the engine uses
 * (a `reject` in any base chain is final), and is replaced atomically (one `nft -f` transaction).
 * Routes in each container would need the agent to enter every container's namespace at every start.
 *
 * The agent makes it with the network (network.ensure), checks it before it runs a container on the
 * network (container.ensure), and re-checks every owned network at start and every minute (a
 * `flush ruleset` or an nftables.service reload on the host wipes it). A missing `nft` fails the
 * command: no container is started where the block cannot be made.
 */
export const METADATA_IPV4 = '169.254.0.0/16';
export const METADATA_IPV6 = 'fd00:ec2::254';
const TABLE_PREFIX = 'berth_metadata_';
const REJECT = 'counter reject with icmpx type admin-prohibited';
const NFT_TIMEOUT_MS = 15_000;

export function metadataTableName(network: string): string {
  return TABLE_PREFIX + network.replace(/[^A-Za-z0-9_]/g, '_');
}

export type NetworkSubnets = { ipv4: string[]; ipv6: string[] };

/** The network's subnets from the engine's inspect answer (Docker and podman both fill IPAM.Config). */
export function subnetsOf(info: Pick<NetworkInspectInfo, 'IPAM'>): NetworkSubnets {
  const subnets = (info.IPAM?.Config ?? []).map((config) => config.Subnet).filter((subnet): subnet is string => typeof subnet === 'string' && subnet !== '');
  return { ipv4: subnets.filter((subnet) => !subnet.includes(':')), ipv6: subnets.filter((subnet) => subnet.includes(':')) };
}

/** The rules of one network's table; every rule carries the same comment, which names their hash. */
export function metadataRules(subnets: NetworkSubnets): { rules: { forward: string[]; input: string[] }; marker: string } {
  const forward = [
    `ip daddr ${METADATA_IPV4}`,
    `ct original ip daddr ${METADATA_IPV4}`,
    `ip6 daddr ${METADATA_IPV6}`,
    `ct original ip6 daddr ${METADATA_IPV6}`,
  ];
  const input: string[] = [];
  const set = (subnets: string[]) => `{ ${subnets.join(', ')} }`;
  if (subnets.ipv4.length > 0)
    input.push(`ip saddr ${set(subnets.ipv4)} ip daddr ${METADATA_IPV4}`, `ip saddr ${set(subnets.ipv4)} ct original ip daddr ${METADATA_IPV4}`);
  if (subnets.ipv6.length > 0)
    input.push(`ip6 saddr ${set(subnets.ipv6)} ip6 daddr ${METADATA_IPV6}`, `ip6 saddr ${set(subnets.ipv6)} ct original ip6 daddr ${METADATA_IPV6}`);
  const marker = `berth-metadata ${createHash('sha256').update(JSON.stringify({ forward, input })).digest('hex').slice(0, 16)}`;
  return { rules: { forward, input }, marker };
}

/** The nft script that replaces the table in one transaction (made first so that the delete never fails). */
export function metadataRuleset(table: string, subnets: NetworkSubnets): { script: string; marker: string; ruleCount: number } {
  const { rules, marker } = metadataRules(subnets);
  const chain = (name: string, hook: string, lines: string[]) => [
    `  chain ${name} {`,
    `    type filter hook ${hook} priority filter - 10; policy accept;`,
    ...lines.map((line) => `    ${line} ${REJECT} comment "${marker}"`),
    '  }',
  ];
  const script = [
    `table inet ${table} {}`,
    `delete table inet ${table}`,
    `table inet ${table} {`,
    ...chain('forward', 'forward', rules.forward),
    ...chain('input', 'input', rules.input),
    '}',
    '',
  ].join('\n');
  return { script, marker, ruleCount: rules.forward.length + rules.input.length };
}

/** Runs nft; a missing binary is an operator's set-up problem, said so. */
export function nft(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile('nft', args, { timeout: NFT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(
          new CommandFailure(
            '`nft` is missing on the node, so site containers could reach the cloud metadata service (169.254.169.254): install nftables (apt-get install nftables)',
            { permanent: true },
          ),
        );
        return;
      }
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    // nft may exit before reading (a bad script, or no input wanted): its exit code says so, not an EPIPE
    child.stdin?.on('error', () => {});
    child.stdin?.end(stdin);
  });
}

/**
 * Makes the network's table when it is missing or differs from what the subnets call for (a rule
 * deleted, the table flushed); leaves a right one alone, so its counters keep counting.
 */
export async function ensureMetadataBlock(network: string, subnets: NetworkSubnets): Promise<{ table: string; changed: boolean }> {
  if (subnets.ipv4.length + subnets.ipv6.length === 0) {
    throw new CommandFailure(`network ${network} has no subnet, so the cloud metadata block cannot be scoped to it`, { permanent: true });
  }
  const table = metadataTableName(network);
  const { script, marker, ruleCount } = metadataRuleset(table, subnets);
  const listed = await nft(['list', 'table', 'inet', table]);
  if (listed.code === 0 && listed.stdout.split(`comment "${marker}"`).length - 1 === ruleCount) return { table, changed: false };
  const applied = await nft(['-f', '-'], script);
  if (applied.code !== 0) throw new CommandFailure(`blocking cloud metadata for network ${network} failed: nft: ${applied.stderr.trim().slice(-2000)}`);
  return { table, changed: true };
}

/** ensureMetadataBlock for a network as the engine describes it. */
export async function ensureMetadataBlockFor(docker: Docker, network: string): Promise<{ table: string; changed: boolean }> {
  let info: NetworkInspectInfo;
  try {
    info = (await docker.getNetwork(network).inspect()) as NetworkInspectInfo;
  } catch (error) {
    if (isNotFound(error)) throw new CommandFailure(`no network named ${network} to block cloud metadata for`);
    throw error;
  }
  return ensureMetadataBlock(String(info.Name ?? network), subnetsOf(info));
}

/**
 * Every network of this node gets its table (at agent start and every minute); tables of networks
 * that no longer exist on the engine (any node's: they protect nothing) are removed.
 */
export async function reconcileMetadataBlocks(docker: Docker, nodeId: string): Promise<{ ensured: string[]; changed: string[]; removed: string[] }> {
  const owned = await docker.listNetworks({ filters: { label: [`${LABELS.managed}=true`, `${LABELS.node}=${nodeId}`] } });
  const ensured: string[] = [];
  const changed: string[] = [];
  for (const network of owned) {
    const result = await ensureMetadataBlock(network.Name, subnetsOf(network));
    ensured.push(result.table);
    if (result.changed) changed.push(result.table);
  }
  // tables first: a network is made before its table, so a table listed here whose network is absent
  // from the later listing is truly stale (never one being made right now by another agent)
  const tables = await nft(['list', 'tables', 'inet']);
  const existing = new Set((await docker.listNetworks()).map((network) => metadataTableName(network.Name)));
  const removed: string[] = [];
  if (tables.code === 0) {
    for (const line of tables.stdout.split('\n')) {
      const table = /^table inet (berth_metadata_\S+)$/.exec(line.trim())?.[1];
      if (!table || existing.has(table)) continue;
      // gone meanwhile (another agent pruned it) is fine
      if ((await nft(['delete', 'table', 'inet', table])).code === 0) removed.push(table);
    }
  }
  return { ensured, changed, removed };
}
