import { AGENT_BUILD_VERSION } from '../version.ts';
import type { Handlers } from './types.ts';

export const pingCommands = {
  /** Touches nothing on the node: the answer itself is the point (node.ping). */
  'agent.ping': async (_payload, ctx) => ({ agent_version: ctx.agentVersion ?? AGENT_BUILD_VERSION, agent_time: new Date().toISOString() }),
} satisfies Partial<Handlers>;
