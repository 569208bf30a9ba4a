import fs from 'node:fs';
import os from 'node:os';
import type { NodeMetrics } from '../shared/agent-protocol/protocol.ts';
import type { Docker } from './runtime/docker.ts';

type CpuTimes = { busy: number; total: number };

/** The aggregate `cpu` line of /proc/stat: busy and total jiffies since boot. */
export function parseProcStat(text: string): CpuTimes | null {
  const line = text.split('\n').find((entry) => entry.startsWith('cpu '));
  if (!line) return null;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values;
  const idleAll = idle + iowait;
  const total = user + nice + system + idleAll + irq + softirq + steal;
  return { busy: total - idleAll, total };
}

/** CPU % between two samples of /proc/stat (0 when nothing elapsed). */
export function cpuPercentBetween(previous: CpuTimes, current: CpuTimes): number {
  const total = current.total - previous.total;
  const busy = current.busy - previous.busy;
  return total > 0 ? Math.min(100, Math.max(0, Math.round((busy / total) * 10_000) / 100)) : 0;
}

/** Total and used memory from /proc/meminfo (used = total - available, like `free`). */
export function parseMeminfo(text: string): { total_bytes: number; used_bytes: number } | null {
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : null;
  };
  const total = field('MemTotal');
  const available = field('MemAvailable') ?? field('MemFree');
  if (total === null || available === null) return null;
  return { total_bytes: total, used_bytes: Math.max(0, total - available) };
}

/** The node's metrics for each heartbeat; CPU is measured over the time since the previous one. */
/** How long a heartbeat waits for the engine's container counts. */
const ENGINE_INFO_WAIT_MS = 3_000;

export class MetricsSampler {
  private previousCpu: CpuTimes | null = null;
  private asking: Promise<void> | null = null;
  private lastCounts = { running: 0, total: 0 };
  private readonly docker: Docker;
  private readonly dataDir: string;

  constructor(docker: Docker, dataDir: string) {
    this.docker = docker;
    this.dataDir = dataDir;
    this.previousCpu = readCpu();
  }

  async sample(): Promise<NodeMetrics> {
    const cpu = readCpu();
    const cpuPercent = cpu && this.previousCpu ? cpuPercentBetween(this.previousCpu, cpu) : 0;
    if (cpu) this.previousCpu = cpu;
    const memory = readText('/proc/meminfo', parseMeminfo) ?? { total_bytes: os.totalmem(), used_bytes: os.totalmem() - os.freemem() };
    const disk = await fs.promises.statfs(this.dataDir);
    const total = disk.blocks * disk.bsize;
    return {
      cpu_percent: cpuPercent,
      load_average: os.loadavg().map((value) => Math.round(value * 100) / 100),
      memory,
      disk: { total_bytes: total, used_bytes: total - disk.bfree * disk.bsize, path: this.dataDir },
      containers: await this.containers(),
    };
  }

  /**
   * The engine's container counts, waited for at most ENGINE_INFO_WAIT_MS. podman's /info reads its
   * storage and can wait minutes on the storage lock while the engine removes or builds something
   * big; a heartbeat that waited with it left the node `offline` (seen: a site's first command not
   * picked up within 120 s on a busy test machine). A slow answer gives the last counts; the
   * question stays asked, and no second one is sent while it is.
   */
  private async containers(): Promise<{ running: number; total: number }> {
    this.asking ??= this.docker
      .info()
      .then(
        (info: { Containers?: number; ContainersRunning?: number }) => {
          this.lastCounts = { running: info.ContainersRunning ?? 0, total: info.Containers ?? 0 };
        },
        // the engine being down is reported by the commands that need it; the heartbeat still goes out
        () => {
          this.lastCounts = { running: 0, total: 0 };
        },
      )
      .finally(() => {
        this.asking = null;
      });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.asking, new Promise((resolve) => (timer = setTimeout(resolve, ENGINE_INFO_WAIT_MS)))]);
    clearTimeout(timer);
    return this.lastCounts;
  }
}

function readCpu(): CpuTimes | null {
  return readText('/proc/stat', parseProcStat);
}

function readText<T>(file: string, parse: (text: string) => T | null): T | null {
  try {
    return parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
