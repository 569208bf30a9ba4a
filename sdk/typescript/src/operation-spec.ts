/**
 * How the generated table (generated/operations.ts) describes one operation. `answer` says how the
 * client reads a success: `data` of `{data, meta}`, a `page` of a list, the `body` as-is (the cookie
 * surface /api/v1/auth/* and the agent protocol), a `binary` stream, or nothing (`empty`).
 */
export type OperationSpec = {
  readonly method: string;
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly queryParams: readonly string[];
  readonly bodyMediaType: string | null;
  readonly idempotencyKey: boolean;
  readonly answer: 'data' | 'page' | 'body' | 'binary' | 'empty';
};
