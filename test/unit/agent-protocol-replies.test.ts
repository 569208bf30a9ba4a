import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { commandsReply, enrollReply, heartbeatReply, logsReply } from '../../shared/agent-protocol/protocol.ts';
import { commandsReplyCheck, enrollReplyCheck, heartbeatReplyCheck, logsReplyCheck, type ReplyCheck } from '../../agent/protocol-replies.ts';

// The agent checks the control plane's answers by hand (no zod at idle); the zod schemas stay the
// contract. Each pair must agree on every sample: the same verdict, and the same output when valid.
const command = { id: 'op-1:step-1', kind: 'container.ensure', payload: { name: 'x' }, deadline_at: '2026-01-01T00:00:00Z', delivery: 1 };
const cases: Array<{ name: string; schema: z.ZodType; check: ReplyCheck<unknown>; valid: unknown[]; invalid: unknown[] }> = [
  {
    name: 'enroll',
    schema: enrollReply,
    check: enrollReplyCheck,
    valid: [
      { node_id: '0f8fad5b-d9cb-469f-a165-70867728950e', node_name: 'node-1' },
      { node_id: '00000000-0000-0000-0000-000000000000', node_name: '', extra: true },
      { node_id: '0F8FAD5B-D9CB-169F-B165-70867728950E', node_name: 'n' },
    ],
    invalid: [
      null,
      undefined,
      [],
      'x',
      { node_name: 'n' },
      { node_id: 'not-a-uuid', node_name: 'n' },
      { node_id: '0f8fad5b-d9cb-969f-a165-70867728950e', node_name: 'n' },
      { node_id: '0f8fad5b-d9cb-469f-c165-70867728950e', node_name: 'n' },
      { node_id: '0f8fad5b-d9cb-469f-a165-70867728950e', node_name: 5 },
      { node_id: '0f8fad5b-d9cb-469f-a165-70867728950e' },
    ],
  },
  {
    name: 'commands',
    schema: commandsReply,
    check: commandsReplyCheck,
    valid: [
      { commands: [] },
      { commands: [command, { ...command, id: 'x'.repeat(200), payload: null, extra: 1 }] },
      { commands: [{ id: 'a', kind: '', payload: [], deadline_at: '', delivery: 0 }] },
      { commands: [{ ...command, payload: undefined }] },
      { commands: [{ ...command, delivery: -3 }], more: 'ignored' },
    ],
    invalid: [
      null,
      {},
      { commands: {} },
      { commands: [null] },
      { commands: [{ ...command, id: '' }] },
      { commands: [{ ...command, id: 'x'.repeat(201) }] },
      { commands: [{ ...command, kind: 1 }] },
      { commands: [{ ...command, deadline_at: null }] },
      { commands: [{ ...command, delivery: 1.5 }] },
      { commands: [{ ...command, delivery: '1' }] },
      { commands: [{ ...command, delivery: Number.NaN }] },
      { commands: [{ ...command, delivery: 2 ** 60 }] },
      { commands: [command, { ...command, delivery: undefined }] },
      { commands: [{ id: 'a', kind: '', deadline_at: '', delivery: 0 }] },
    ],
  },
  {
    name: 'heartbeat',
    schema: heartbeatReply,
    check: heartbeatReplyCheck,
    valid: ['enrolling', 'online', 'offline', 'draining', 'disabled'].map((node_status) => ({ node_status, other: 1 })),
    invalid: [null, {}, { node_status: 'ONLINE' }, { node_status: 'gone' }, { node_status: 1 }, ['online']],
  },
  {
    name: 'logs',
    schema: logsReply,
    check: logsReplyCheck,
    valid: [
      { stored: 0, dropped: 0 },
      { stored: 12, dropped: -1, note: 'x' },
    ],
    invalid: [null, { stored: 1 }, { stored: 1, dropped: 0.5 }, { stored: '1', dropped: 0 }, { stored: Infinity, dropped: 0 }, { stored: 1, dropped: null }],
  },
];

describe('the agent checks of control plane answers', () => {
  for (const { name, schema, check, valid, invalid } of cases) {
    it(`${name}: accepts what the zod schema accepts, with the same output`, () => {
      for (const sample of valid) {
        const parsed = schema.safeParse(sample);
        expect(parsed.success, JSON.stringify(sample)).toBe(true);
        expect(check(sample)).toStrictEqual({ ok: true, value: parsed.data });
      }
    });
    it(`${name}: refuses what the zod schema refuses, saying where`, () => {
      for (const sample of invalid) {
        expect(schema.safeParse(sample).success, JSON.stringify(sample)).toBe(false);
        const checked = check(sample);
        expect(checked.ok, JSON.stringify(sample)).toBe(false);
        if (!checked.ok) expect(checked.message).toMatch(/^(the answer|[a-z_]+(\[\d+\](\.[a-z_]+)?)?): expected/);
      }
    });
  }
});
