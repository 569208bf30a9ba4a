import type { OperationSpec } from './operation-spec.ts';

/**
 * What an operation method returns for a 2xx: the `data` of `{data, meta}`, `{data, pagination}` of a
 * list, the body as-is where the API answers no envelope (the cookie surface, the agent protocol),
 * the fetch Response itself for a binary download (read it as a stream), undefined for no content.
 */
export async function readAnswer(response: Response, spec: OperationSpec): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  if (spec.answer === 'binary') return response;
  const text = await response.text();
  if (text === '') return undefined;
  const body = JSON.parse(text) as { data?: unknown; pagination?: unknown };
  if (spec.answer === 'page') return { data: body.data, pagination: body.pagination };
  if (spec.answer === 'data') return body.data;
  return body;
}
