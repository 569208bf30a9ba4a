import type { BerthApi } from './generated/api.ts';
import { OPERATIONS, type OperationId } from './generated/operations.ts';
import type { RequestOptions } from './request-options.ts';

export type Invoke = (operationId: OperationId, params: Record<string, unknown> | undefined, options: RequestOptions | undefined) => Promise<unknown>;

/** `{ sites: { create, list, ... }, ... }` from the operation table: plain closures, so `berth.sites.list` can be passed around unbound. */
export function buildNamespaces(invoke: Invoke): BerthApi {
  const namespaces: Record<string, Record<string, unknown>> = {};
  for (const operationId of Object.keys(OPERATIONS) as OperationId[]) {
    const [namespace, verb] = operationId.split('.') as [string, string];
    namespaces[namespace] ??= {};
    namespaces[namespace][verb] = (params?: Record<string, unknown>, options?: RequestOptions) => invoke(operationId, params, options);
  }
  return namespaces as unknown as BerthApi;
}
