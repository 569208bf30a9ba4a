import type { AgentCommand } from '../shared/agent-protocol/protocol.ts';

/**
 * The agent's checks of the control plane's answers, written by hand: the zod schemas of
 * shared/agent-protocol/protocol.ts (enrollReply, commandsReply, heartbeatReply, logsReply) stay the
 * contract, but loading zod and building them costs an idle agent ~10 MB. Each check accepts exactly
 * what its schema accepts and returns the same output (unknown keys dropped);
 * test/unit/agent-protocol-replies.test.ts holds both to that on valid and invalid samples.
 */
export type ReplyCheck<T> = (value: unknown) => { ok: true; value: T } | { ok: false; message: string };

class Invalid extends Error {}

function check<T>(read: (value: unknown) => T): ReplyCheck<T> {
  return (value) => {
    try {
      return { ok: true, value: read(value) };
    } catch (error) {
      if (error instanceof Invalid) return { ok: false, message: error.message };
      throw error;
    }
  };
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Invalid(`${at || 'the answer'}: expected an object`);
  return value as Record<string, unknown>;
}

function string(value: unknown, at: string, min = 0, max = Infinity): string {
  if (typeof value !== 'string') throw new Invalid(`${at}: expected a string`);
  if (value.length < min || value.length > max) throw new Invalid(`${at}: expected ${min} to ${max} characters`);
  return value;
}

function integer(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new Invalid(`${at}: expected an integer`);
  return value;
}

// zod's z.uuid(): RFC 9562 versions 1 to 8, and the nil and max UUIDs
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export const enrollReplyCheck = check((value) => {
  const reply = object(value, '');
  const nodeId = string(reply.node_id, 'node_id');
  if (!UUID.test(nodeId)) throw new Invalid('node_id: expected a UUID');
  return { node_id: nodeId, node_name: string(reply.node_name, 'node_name') };
});

function command(value: unknown, at: string): AgentCommand {
  const item = object(value, at);
  const id = string(item.id, `${at}.id`, 1, 200);
  const kind = string(item.kind, `${at}.kind`);
  const deadline = string(item.deadline_at, `${at}.deadline_at`);
  const delivery = integer(item.delivery, `${at}.delivery`);
  // z.unknown() as zod reads it: any value, undefined included, but the key must be there
  if (!('payload' in item)) throw new Invalid(`${at}.payload: expected a key`);
  return { id, kind, payload: item.payload, deadline_at: deadline, delivery };
}

export const commandsReplyCheck = check((value) => {
  const list = object(value, '').commands;
  if (!Array.isArray(list)) throw new Invalid('commands: expected an array');
  return { commands: list.map((item, index) => command(item, `commands[${index}]`)) };
});

const NODE_STATUSES = ['enrolling', 'online', 'offline', 'draining', 'disabled'] as const;

export const heartbeatReplyCheck = check((value) => {
  const status = object(value, '').node_status;
  if (!NODE_STATUSES.includes(status as (typeof NODE_STATUSES)[number])) throw new Invalid(`node_status: expected one of ${NODE_STATUSES.join(', ')}`);
  return { node_status: status as (typeof NODE_STATUSES)[number] };
});

export const logsReplyCheck = check((value) => {
  const reply = object(value, '');
  return { stored: integer(reply.stored, 'stored'), dropped: integer(reply.dropped, 'dropped') };
});
