import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORDPRESS_RUNTIME } from '../../../shared/wordpress/runtime.ts';
import { nodeLayout } from '../../../shared/domains/nodes/node-layout.ts';
import { SITE_PIDS_LIMIT } from '../../../workers/environments/site-runtime.ts';
import { measured, median } from '../../helpers/measure.ts';
import { docker, execIn, operationOutcome } from '../../helpers/site-node.ts';
import { startTwoSites, type TwoSites } from '../../helpers/two-sites.ts';
import { until } from '../../helpers/until.ts';

/**
 * A tenant runs code in its own container (PHP as www-data, and whatever that PHP starts). Its
 * container is bounded: the plan's CPU beside its memory, a PID limit, no new privileges, only the
 * capabilities the image's root entrypoint and php-fpm master need. The attack: a fork bomb in
 * site A while site B, on the same node, keeps answering through the edge.
 */
const CPU_MILLICORES = 500;
let sites: TwoSites;

beforeAll(async () => {
  sites = await startTwoSites('container-limits', { environment_cpu_millicores: CPU_MILLICORES });
}, 600_000);

// the node's removal stops containers whose PID limit a fork bomb filled: podman can take its time
afterAll(async () => {
  await sites?.stop();
}, 120_000);

const CAPABILITY_BITS: Record<string, number> = {
  CHOWN: 0,
  DAC_OVERRIDE: 1,
  DAC_READ_SEARCH: 2,
  FOWNER: 3,
  FSETID: 4,
  KILL: 5,
  SETGID: 6,
  SETUID: 7,
  NET_BIND_SERVICE: 10,
};
const capabilityMask = (names: string[]) => names.reduce((mask, name) => mask | (1n << BigInt(CAPABILITY_BITS[name]!)), 0n);

/** A process's capability sets and no_new_privs flag, from /proc/<pid>/status inside the container. */
async function processStatus(container: string, pid: string, user?: string): Promise<{ bounding: bigint; effective: bigint; noNewPrivs: string }> {
  const status = await execIn(container, ['cat', `/proc/${pid}/status`], {}, user);
  const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(status)?.[1] ?? '';
  return { bounding: BigInt(`0x${field('CapBnd')}`), effective: BigInt(`0x${field('CapEff')}`), noNewPrivs: field('NoNewPrivs') };
}

async function pidsInUse(container: string): Promise<number> {
  const stats = (await docker.getContainer(container).stats({ stream: false })) as unknown as { pids_stats?: { current?: number } };
  return stats.pids_stats?.current ?? 0;
}

/** Milliseconds of one request through the edge, and its status. */
async function timedThroughEdge(url: string): Promise<{ ms: number; status: number }> {
  const { ms, value: answer } = await measured(() => sites.node.throughEdge(url));
  return { ms, status: answer.status };
}

describe('site container limits', () => {
  it('takes the CPU from the plan (one core by default), shown on the plan and the environment', async () => {
    const { stack, bearer, owners, a } = sites;
    expect((await stack.client().get('/v1/entitlements', bearer('a'))).body.data).toMatchObject({ environment_cpu_millicores: CPU_MILLICORES });
    expect((await stack.client().get(`/v1/sites/${a.id}`, bearer('a'))).body.data.environments[0]).toMatchObject({ cpu_limit_millicores: CPU_MILLICORES });
    // a plan set without it gets one core; environments made before keep theirs
    const reset = await stack.client().request('PUT', `/v1/admin/teams/${owners.a.teamId}/entitlements`, {
      json: { plan: 'isolation', max_sites: 2, max_disk_bytes: 10 * 1024 ** 3 },
      ...bearer('operator'),
    });
    expect(reset.body.data).toMatchObject({ environment_cpu_millicores: 1000 });
    const tooSmall = await stack.client().request('PUT', `/v1/admin/teams/${owners.a.teamId}/entitlements`, {
      json: { plan: 'isolation', max_sites: 2, max_disk_bytes: 1, environment_cpu_millicores: 10 },
      ...bearer('operator'),
    });
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.body.error.details.fields[0].field).toBe('environment_cpu_millicores');
    expect((await stack.client().get(`/v1/sites/${a.id}`, bearer('a'))).body.data.environments[0]).toMatchObject({ cpu_limit_millicores: CPU_MILLICORES });
  });

  it('is reported by the engine with its PID limit, CPU, memory, no-new-privileges and dropped capabilities, and holds inside', async () => {
    const { a } = sites;
    const info = await docker.getContainer(a.container).inspect();
    const host = info.HostConfig as typeof info.HostConfig & { PidsLimit?: number; NanoCpus?: number };
    expect(host).toMatchObject({
      PidsLimit: SITE_PIDS_LIMIT,
      NanoCpus: CPU_MILLICORES * 1_000_000,
      CpuShares: 512,
      Memory: Number(a.environment.memory_limit_bytes),
    });
    expect(host.SecurityOpt).toContain('no-new-privileges');
    // the engine lists what it dropped (podman names each, Docker says ALL): none of the kept ones
    expect(host.CapDrop?.length).toBeGreaterThan(0);
    for (const kept of WORDPRESS_RUNTIME.siteCapabilities) expect(host.CapDrop).not.toContain(kept);

    // inside: tini (PID 1) is bounded to the kept set; a www-data process (where tenant code runs) has none and can gain none
    expect(await processStatus(a.container, '1')).toMatchObject({ bounding: capabilityMask(WORDPRESS_RUNTIME.siteCapabilities), noNewPrivs: '1' });
    expect(await processStatus(a.container, 'self', 'www-data')).toMatchObject({
      effective: 0n,
      bounding: capabilityMask(WORDPRESS_RUNTIME.siteCapabilities),
      noNewPrivs: '1',
    });
    const pidsMax = await execIn(a.container, ['sh', '-c', 'cat /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids.max']);
    expect(pidsMax.trim()).toBe(String(SITE_PIDS_LIMIT));
    const cpuQuota = await execIn(a.container, ['sh', '-c', 'cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null || cut -d" " -f1 /sys/fs/cgroup/cpu.max']);
    expect(Number(cpuQuota.trim())).toBe(50_000); // of a 100 ms period: half a core

    // the node's own services are confined too, and work (both sites were made and answer through them)
    const node = nodeLayout(sites.node.nodeId);
    for (const [container, capabilities] of [
      [node.edgeContainer, WORDPRESS_RUNTIME.edgeCapabilities],
      [node.mariadbContainer, WORDPRESS_RUNTIME.mariadbCapabilities],
    ] as const) {
      expect(await processStatus(container, '1'), container).toMatchObject({ bounding: capabilityMask(capabilities), noNewPrivs: '1' });
      expect((await docker.getContainer(container).inspect()).HostConfig).toMatchObject({ PidsLimit: 1024 });
    }
  });

  it('stops a fork bomb in site A at its PID limit while site B keeps answering 200 through the edge; A is back after a restart', async () => {
    const { a, b, stack, bearer } = sites;
    const urlB = `http://${b.domain}/`;
    const before: number[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await timedThroughEdge(urlB);
      expect(answer.status).toBe(200);
      before.push(answer.ms);
    }

    // the tenant's PHP could start this: a real fork bomb, as the site's user, left running
    const bomb = await docker
      .getContainer(a.container)
      .exec({ Cmd: ['sh', '-c', 'f() { f | f & }; f'], User: WORDPRESS_RUNTIME.siteUser, AttachStdout: false, AttachStderr: false });
    await bomb.start({ Detach: true });
    const filled = await until(
      async () => {
        const pids = await pidsInUse(a.container);
        return pids >= SITE_PIDS_LIMIT - 5 ? pids : null;
      },
      'the fork bomb to reach the PID limit',
      60_000,
      250,
    );
    expect(filled).toBeLessThanOrEqual(SITE_PIDS_LIMIT);

    const during: number[] = [];
    const pids: number[] = [];
    const until8s = Date.now() + 8_000;
    while (Date.now() < until8s) {
      const answer = await timedThroughEdge(urlB);
      expect(answer.status).toBe(200);
      during.push(answer.ms);
      pids.push(await pidsInUse(a.container));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // the bomb goes on (its processes come and go, between ~130 and the limit here) but never past the limit; B's user can still start processes (the helper)
    expect(Math.max(...pids)).toBeLessThanOrEqual(SITE_PIDS_LIMIT);
    expect((await execIn(b.container, ['php', '-r', 'echo 6 * 7;'], {}, WORDPRESS_RUNTIME.siteUser)).trim()).toBe('42');
    console.info(
      `fork bomb in A (${Math.min(...pids)}-${Math.max(...pids)} PIDs): B's front page before ${median(before).toFixed(0)} ms median (max ${Math.max(...before).toFixed(0)}), during ${median(during).toFixed(0)} ms median (max ${Math.max(...during).toFixed(0)}) over ${during.length} requests`,
    );

    const restarted = await stack.client().post(`/v1/sites/${a.id}/environments/production/restart`, {}, bearer('a'));
    expect(restarted.status, JSON.stringify(restarted.body)).toBe(202);
    const outcome = await operationOutcome(stack, sites.token('a'), restarted.body.data.operation.id, 120_000);
    expect(outcome.status, JSON.stringify(outcome.error)).toBe('succeeded');
    expect(await pidsInUse(a.container)).toBeLessThan(50);
    expect((await sites.node.throughEdge(`http://${a.domain}/`)).status).toBe(200);
    expect((await sites.node.throughEdge(urlB)).status).toBe(200);
  }, 240_000);
});
