import { createHash } from 'node:crypto';
import type { ContainerCreateOptions, ContainerInspectInfo } from 'dockerode';
import { LABELS } from '../../shared/agent-protocol/labels.ts';
import { CommandFailure } from './failure.ts';
import { ensureImage } from './images.ts';
import type { CommandContext, Handlers, Payload } from './types.ts';
import { ensureDirectoryPath } from '../runtime/data-dir.ts';
import { engineMessage, isNotFound, isOwned, notOwned, ownedLabels, statusCodeOf } from '../runtime/docker.ts';
import { execInContainer } from '../runtime/exec.ts';
import { ensureMetadataBlockFor } from '../runtime/metadata-block.ts';
import { forbidSymlinksIn } from '../runtime/no-symlink-mounts.ts';

/** A failed exec reports at most this much of its stderr (the protocol's stderr_tail limit). */
const STDERR_TAIL_CHARS = 8000;

/**
 * The hash of what the container is made of (everything but whether to start it), kept in its
 * berth.spec-hash label: the same spec leaves the container alone, a changed one recreates it.
 */
export function specHash(payload: Payload<'container.ensure'>, hostEntries: string[] = []): string {
  const { start: _start, ...spec } = payload;
  // the addresses behind `hosts` too: a peer that came back elsewhere makes this container anew
  const made = hostEntries.length > 0 ? { ...spec, host_entries: hostEntries } : spec;
  return createHash('sha256').update(canonicalJson(made)).digest('hex').slice(0, 32);
}

/** `name:address` for each of `hosts`, its address on the payload's network; a peer not running there fails the command (for now). */
async function hostEntries(payload: Payload<'container.ensure'>, ctx: CommandContext): Promise<string[]> {
  const entries: string[] = [];
  for (const host of payload.hosts ?? []) {
    const peer = await ownedContainer(ctx, host);
    const address = payload.network ? peer?.NetworkSettings.Networks[payload.network]?.IPAddress : undefined;
    if (!address) throw new CommandFailure(`container ${host} has no address on ${payload.network ?? 'no network'} for ${payload.name}'s /etc/hosts`);
    entries.push(`${host}:${address}`);
  }
  return entries;
}

/** The address the container holds on the payload's network, to be kept by its successor. */
function addressOn(info: ContainerInspectInfo, network: string | undefined): string | undefined {
  return network ? info.NetworkSettings.Networks[network]?.IPAddress || undefined : undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The container by name if it exists; one that is not this agent's fails the command. */
async function ownedContainer(ctx: CommandContext, name: string): Promise<ContainerInspectInfo | null> {
  let info: ContainerInspectInfo;
  try {
    info = await ctx.docker.getContainer(name).inspect();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
  if (!isOwned(info.Config.Labels, ctx.nodeId)) throw notOwned('container', name);
  return info;
}

async function createOptions(
  payload: Payload<'container.ensure'>,
  ctx: CommandContext,
  made: { hash: string; hostEntries: string[]; address?: string | undefined },
): Promise<ContainerCreateOptions> {
  const { hash } = made;
  const mounts: NonNullable<NonNullable<ContainerCreateOptions['HostConfig']>['Mounts']> = [];
  for (const mount of payload.mounts) {
    if (mount.type === 'bind') {
      // Like `docker run -v`, a missing source directory is created, inside the data directory only.
      const source = await ensureDirectoryPath(ctx.dataDir, mount.source, 0o755);
      mounts.push({ Type: 'bind', Source: source, Target: mount.target, ReadOnly: mount.read_only });
    } else {
      mounts.push({ Type: 'volume', Source: mount.source, Target: mount.target, ReadOnly: mount.read_only });
    }
  }
  const portBindings: Record<string, Array<{ HostIp: string; HostPort: string }>> = {};
  for (const port of payload.ports) (portBindings[`${port.container}/tcp`] ??= []).push({ HostIp: port.host_ip, HostPort: String(port.host) });
  return {
    name: payload.name,
    Image: payload.image,
    Labels: ownedLabels(ctx.nodeId, { ...payload.labels, [LABELS.specHash]: hash }),
    Env: Object.entries(payload.env).map(([name, value]) => `${name}=${value}`),
    ...(payload.cmd ? { Cmd: payload.cmd } : {}),
    ExposedPorts: Object.fromEntries(Object.keys(portBindings).map((port) => [port, {}])),
    ...(made.address && payload.network ? { NetworkingConfig: { EndpointsConfig: { [payload.network]: { IPAMConfig: { IPv4Address: made.address } } } } } : {}),
    HostConfig: {
      ...(payload.network ? { NetworkMode: payload.network } : {}),
      ...(made.hostEntries.length > 0 ? { ExtraHosts: made.hostEntries } : {}),
      PortBindings: portBindings,
      Mounts: mounts,
      ...(payload.memory_bytes ? { Memory: payload.memory_bytes } : {}),
      ...(payload.nano_cpus ? { NanoCpus: payload.nano_cpus } : {}),
      ...(payload.cpu_shares ? { CpuShares: payload.cpu_shares } : {}),
      ...(payload.pids_limit ? { PidsLimit: payload.pids_limit } : {}),
      ...(payload.no_new_privileges ? { SecurityOpt: ['no-new-privileges'] } : {}),
      ...(payload.cap_drop ? { CapDrop: payload.cap_drop } : {}),
      ...(payload.cap_add ? { CapAdd: payload.cap_add } : {}),
      // sites come back after a reboot of the node or a crash of their process
      RestartPolicy: { Name: 'unless-stopped' },
    },
  };
}

/** Stops if running (304 "already stopped" is fine), then removes; gone already is fine too. */
async function stopAndRemove(ctx: CommandContext, id: string, timeoutSeconds: number): Promise<void> {
  const container = ctx.docker.getContainer(id);
  try {
    await container.stop({ t: timeoutSeconds });
  } catch (error) {
    if (!isNotFound(error) && statusCodeOf(error) !== 304) throw error;
  }
  try {
    await container.remove({ force: true });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

export const containerCommands = {
  'container.ensure': async (payload, ctx) => {
    const entries = await hostEntries(payload, ctx);
    const hash = specHash(payload, entries);
    let existing = await ownedContainer(ctx, payload.name);
    let recreated = false;
    let address: string | undefined;
    if (existing && existing.Config.Labels[LABELS.specHash] !== hash) {
      if (payload.keep_address) address = addressOn(existing, payload.network);
      // the new image first: a missing one fails the command while the old container still runs
      await ensureImage(payload.image, ctx);
      ctx.log('info', `the spec of ${payload.name} changed: recreating it`);
      await stopAndRemove(ctx, existing.Id, 10);
      existing = null;
      recreated = true;
    }
    let created = false;
    if (!existing) {
      if (!recreated) await ensureImage(payload.image, ctx);
      try {
        await ctx.docker.createContainer(await createOptions(payload, ctx, { hash, hostEntries: entries, address }));
        created = true;
      } catch (error) {
        if (statusCodeOf(error) !== 409)
          throw new CommandFailure(`creating container ${payload.name} failed: ${engineMessage(error)}`, { permanent: statusCodeOf(error) === 400 });
        // another delivery of this command created it meanwhile: it is checked like any existing one
      }
      existing = await ownedContainer(ctx, payload.name);
      if (!existing) throw new CommandFailure(`container ${payload.name} vanished right after it was created`);
      if (existing.Config.Labels[LABELS.specHash] !== hash)
        throw new CommandFailure(`container ${payload.name} was created with another spec at the same time; run the command again`);
    }
    let running = existing.State.Running;
    // nothing starts on a network whose cloud metadata block is missing (flushed since the last check)
    if (payload.network && !['host', 'none', 'bridge'].includes(payload.network)) await ensureMetadataBlockFor(ctx.docker, payload.network);
    if (payload.start && !running) {
      try {
        await ctx.docker.getContainer(existing.Id).start();
      } catch (error) {
        if (statusCodeOf(error) !== 304) throw new CommandFailure(`starting container ${payload.name} failed: ${engineMessage(error)}`);
      }
      running = true;
    }
    const guarded = payload.mounts
      .filter((mount) => mount.type === 'bind' && mount.nosymfollow)
      .map((mount) => ({ target: mount.target, readOnly: mount.read_only }));
    if (guarded.length > 0 && running) {
      const pid = (await ctx.docker.getContainer(existing.Id).inspect()).State.Pid;
      await forbidSymlinksIn(pid, payload.name, guarded);
    }
    return { id: existing.Id, created, recreated, running };
  },

  'container.stop': async (payload, ctx) => {
    const existing = await ownedContainer(ctx, payload.name);
    if (!existing || !existing.State.Running) return { stopped: false };
    try {
      await ctx.docker.getContainer(existing.Id).stop({ t: payload.timeout_seconds });
    } catch (error) {
      if (isNotFound(error) || statusCodeOf(error) === 304) return { stopped: false };
      throw error;
    }
    return { stopped: true };
  },

  /** A stopped container is started (`restarted: false`): the caller wants it running afresh either way. */
  'container.restart': async (payload, ctx) => {
    const existing = await ownedContainer(ctx, payload.name);
    if (!existing) throw new CommandFailure(`no container named ${payload.name}`, { permanent: true });
    const container = ctx.docker.getContainer(existing.Id);
    const wasRunning = existing.State.Running;
    try {
      if (wasRunning) await container.restart({ t: payload.timeout_seconds });
      else await container.start();
    } catch (error) {
      if (isNotFound(error)) throw new CommandFailure(`no container named ${payload.name}`, { permanent: true });
      // 304: started meanwhile by another delivery of this command, which is what was asked
      if (statusCodeOf(error) !== 304)
        throw new CommandFailure(`${wasRunning ? 'restarting' : 'starting'} container ${payload.name} failed: ${engineMessage(error)}`);
    }
    const after = await container.inspect();
    return { restarted: wasRunning, running: after.State.Running };
  },

  'container.remove': async (payload, ctx) => {
    const existing = await ownedContainer(ctx, payload.name);
    if (!existing) return { removed: false };
    try {
      await ctx.docker.getContainer(existing.Id).remove({ force: true });
    } catch (error) {
      if (isNotFound(error)) return { removed: false };
      throw error;
    }
    return { removed: true };
  },

  'container.exec': async (payload, ctx) => {
    const existing = await ownedContainer(ctx, payload.name);
    if (!existing) throw new CommandFailure(`no container named ${payload.name}`, { permanent: true });
    if (!existing.State.Running) throw new CommandFailure(`container ${payload.name} is not running`);
    const outcome = await execInContainer(ctx.docker, existing.Id, payload, { signal: ctx.signal, onLine: (stream, line) => ctx.log(stream, line) });
    if (!payload.ok_exit_codes.includes(outcome.exitCode)) {
      throw new CommandFailure(`\`${payload.cmd.join(' ')}\` in ${payload.name} exited with ${outcome.exitCode}`, {
        exitCode: outcome.exitCode,
        stderrTail: outcome.stderr.slice(-STDERR_TAIL_CHARS),
        // whether running it again can help is the caller's to know (a database still starting...)
        permanent: false,
      });
    }
    return { exit_code: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr };
  },

  'container.stats': async (payload, ctx) => {
    const existing = await ownedContainer(ctx, payload.name);
    if (!existing) throw new CommandFailure(`no container named ${payload.name}`, { permanent: true });
    const stats = (await ctx.docker.getContainer(existing.Id).stats({ stream: false })) as unknown as EngineStats;
    return containerStats(stats);
  },
} satisfies Partial<Handlers>;

type EngineStats = {
  cpu_stats?: { cpu_usage?: { total_usage?: number; percpu_usage?: number[] }; system_cpu_usage?: number; online_cpus?: number };
  precpu_stats?: { cpu_usage?: { total_usage?: number }; system_cpu_usage?: number };
  memory_stats?: { usage?: number; limit?: number; stats?: { inactive_file?: number; total_inactive_file?: number; cache?: number } };
};

/** CPU % over the engine's two samples (like `docker stats`); memory without the reclaimable page cache. */
export function containerStats(stats: EngineStats): { cpu_percent: number; memory_bytes: number; memory_limit_bytes: number } {
  const cpuDelta = (stats.cpu_stats?.cpu_usage?.total_usage ?? 0) - (stats.precpu_stats?.cpu_usage?.total_usage ?? 0);
  const systemDelta = (stats.cpu_stats?.system_cpu_usage ?? 0) - (stats.precpu_stats?.system_cpu_usage ?? 0);
  const cpus = stats.cpu_stats?.online_cpus ?? stats.cpu_stats?.cpu_usage?.percpu_usage?.length ?? 1;
  const cpuPercent = cpuDelta > 0 && systemDelta > 0 ? (cpuDelta / systemDelta) * cpus * 100 : 0;
  const memory = stats.memory_stats ?? {};
  const cache = memory.stats?.inactive_file ?? memory.stats?.total_inactive_file ?? 0;
  return {
    cpu_percent: Math.round(cpuPercent * 100) / 100,
    memory_bytes: Math.max(0, Math.round((memory.usage ?? 0) - cache)),
    memory_limit_bytes: Math.round(memory.limit ?? 0),
  };
}
