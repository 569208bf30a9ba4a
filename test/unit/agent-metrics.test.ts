import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { MetricsSampler } from '../../agent/metrics.ts';
import type { Docker } from '../../agent/runtime/docker.ts';

describe("the agent's heartbeat metrics", () => {
  it("go out within seconds while the engine's /info hangs, with the last counts, asking once", async () => {
    let asked = 0;
    let answer: (info: object) => void = () => undefined;
    const engine = {
      info: () => {
        asked += 1;
        return asked === 1 ? Promise.resolve({ Containers: 3, ContainersRunning: 2 }) : new Promise((resolve) => (answer = resolve));
      },
    } as unknown as Docker;
    const sampler = new MetricsSampler(engine, os.tmpdir());
    expect((await sampler.sample()).containers).toEqual({ running: 2, total: 3 });
    const started = Date.now();
    // the engine stalls (podman waiting on its storage lock): two heartbeats, one question
    expect((await sampler.sample()).containers).toEqual({ running: 2, total: 3 });
    expect((await sampler.sample()).containers).toEqual({ running: 2, total: 3 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(asked).toBe(2);
    answer({ Containers: 5, ContainersRunning: 4 });
    await new Promise((resolve) => setImmediate(resolve));
    engine.info = () => Promise.resolve({ Containers: 5, ContainersRunning: 4 });
    expect((await sampler.sample()).containers).toEqual({ running: 4, total: 5 });
  }, 20_000);
});
