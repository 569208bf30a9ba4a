import type { Knex } from 'knex';
import { z } from 'zod';
import type { Operation } from '../../shared/db/models.ts';
import { operationKind, type OperationKindSpec } from '../../shared/domains/operations/operation-kind.ts';
import { insertOperations, type OperationStart } from '../../shared/domains/operations/operations.ts';

/** A kind only tests use, with one step (`work` unless told) and any input. */
export function testKind<const Kind extends string, const Step extends string = 'work'>(kind: Kind, step?: Step) {
  return operationKind({ kind, input: z.record(z.string(), z.unknown()), steps: [{ name: (step ?? 'work') as Step }], deadlineSeconds: 30 * 60 });
}

/**
 * An operation written the way every operation is (its input parsed, its steps), handed to no
 * worker: the test drives it itself (queues its agent commands, runs its runbook, finishes it).
 */
export async function insertTestOperation(
  db: Knex,
  spec: OperationKindSpec,
  start: OperationStart = { teamId: null, target: { type: 'node', id: 'test' } },
  input: Record<string, unknown> = {},
): Promise<Operation> {
  const [operation] = await db.transaction((trx) => insertOperations(trx, spec, [{ input, start }]));
  return operation!;
}
