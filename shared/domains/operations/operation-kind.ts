import type { z } from 'zod';

/** A step as declared: its name (stored, shown by the API) and whether the operation may stop while it runs. */
export type StepDeclaration<Name extends string = string> = { readonly name: Name; readonly cancellable?: boolean };

/**
 * One kind of operation as the whole system knows it: the API and the scheduler start it with an
 * input its schema accepts, the workers carry out its steps in this order under these names, and
 * the sweeper fails it past its deadline.
 */
export type OperationKindSpec<
  Kind extends string = string,
  Input extends z.ZodType = z.ZodType,
  Steps extends readonly StepDeclaration[] = readonly StepDeclaration[],
> = {
  readonly kind: Kind;
  /** Parameters the steps read, checked when the operation starts and parsed again when it runs; never a secret (the API shows them). */
  readonly input: Input;
  readonly steps: Steps;
  readonly deadlineSeconds: number;
};

/** Declares a kind, keeping its name and step names as literal types (so runbooks are checked against them). */
export function operationKind<const Kind extends string, Input extends z.ZodType, const Steps extends readonly StepDeclaration[]>(
  spec: OperationKindSpec<Kind, Input, Steps>,
): OperationKindSpec<Kind, Input, Steps> {
  return spec;
}

/** The default deadline: an operation running longer fails (the sweeper), never stays running. */
export const DEFAULT_DEADLINE_SECONDS = 30 * 60;
