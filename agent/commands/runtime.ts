import { LABELS } from '../../shared/agent-protocol/labels.ts';
import type { Handlers } from './types.ts';
import { hostFacts } from '../host-facts.ts';

export const runtimeCommands = {
  'runtime.info': (_payload, ctx) => hostFacts(ctx.docker),

  /** Everything this agent created on the node (its labels), narrowed by the payload's labels. */
  'runtime.list': async (payload, ctx) => {
    const label = [`${LABELS.managed}=true`, `${LABELS.node}=${ctx.nodeId}`, ...Object.entries(payload.labels).map(([key, value]) => `${key}=${value}`)];
    const filters = { label };
    const [containers, networks, volumes] = await Promise.all([
      ctx.docker.listContainers({ all: true, filters }),
      ctx.docker.listNetworks({ filters }),
      ctx.docker.listVolumes({ filters }),
    ]);
    return {
      containers: containers.map((container) => ({
        name: (container.Names[0] ?? '').replace(/^\//, ''),
        id: container.Id,
        state: container.State,
        image: container.Image,
        labels: container.Labels ?? {},
      })),
      networks: networks.map((network) => ({ name: network.Name, id: network.Id })),
      volumes: (volumes.Volumes ?? []).map((volume) => ({ name: volume.Name })),
    };
  },
} satisfies Partial<Handlers>;
