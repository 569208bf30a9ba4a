import type { z } from 'zod';
import { backupOperations } from '../backups/backups.operations.ts';
import { certificateOperations } from '../certificates/certificates.operations.ts';
import { edgeOperations } from '../edge/edge.operations.ts';
import { nodeOperations } from '../nodes/nodes.operations.ts';
import { siteDomainOperations } from '../site-domains/site-domains.operations.ts';
import { sftpOperations } from '../sftp/sftp.operations.ts';
import { siteOperations } from '../sites/sites.operations.ts';
import { wordpressOperations } from '../wordpress/wordpress.operations.ts';
import type { OperationKindSpec } from './operation-kind.ts';

/** Every kind of operation, declared by its domain (`<domain>.operations.ts`) and gathered here. */
const ALL = [
  ...nodeOperations,
  ...siteOperations,
  ...siteDomainOperations,
  ...certificateOperations,
  ...edgeOperations,
  ...wordpressOperations,
  ...backupOperations,
  ...sftpOperations,
] as const;

type Declared = (typeof ALL)[number];

/** The name of an operation kind (`site.create`, `backup.restore`, ...). */
export type OperationKind = Declared['kind'];

type SpecOf<K extends OperationKind> = Extract<Declared, { kind: K }>;

/** The names of a kind's steps, in no order (the catalogue holds the order). */
export type StepName<K extends OperationKind> = SpecOf<K>['steps'][number]['name'];

/** A kind's input, as its steps read it (parsed by its schema). */
export type OperationInput<K extends OperationKind> = z.output<SpecOf<K>['input']>;

/** The catalogue, by kind. */
export const OPERATION_KINDS = Object.fromEntries(ALL.map((spec) => [spec.kind, spec])) as unknown as { readonly [K in OperationKind]: SpecOf<K> };

/** Every kind's name, for the API's documentation and filters. */
export const OPERATION_KIND_NAMES = ALL.map((spec) => spec.kind) as readonly OperationKind[];

export function isOperationKind(kind: string): kind is OperationKind {
  return Object.hasOwn(OPERATION_KINDS, kind);
}

/** The declaration of a kind; throws for a name that is not one (an operation made by another version). */
export function operationKindSpec(kind: string): OperationKindSpec {
  if (!isOperationKind(kind)) throw new Error(`unknown operation kind ${kind}`);
  return OPERATION_KINDS[kind];
}

// A kind declared twice would make the catalogue ambiguous; fail at load rather than at run time.
if (new Set(OPERATION_KIND_NAMES).size !== ALL.length) throw new Error('an operation kind is declared twice');
// A step named twice would share one function and one checkpoint key; tsc cannot see it (a record has each key once).
for (const spec of ALL) {
  const names: readonly string[] = spec.steps.map((step) => step.name);
  if (names.length === 0 || new Set(names).size !== names.length) throw new Error(`operation kind ${spec.kind} has no steps or names a step twice`);
}
