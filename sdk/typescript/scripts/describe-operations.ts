/**
 * Reads every operation of the OpenAPI document into the facts the SDK needs at run time (method,
 * path, parameter names, body media type, whether it takes an Idempotency-Key, how its answer is
 * unwrapped) and the TypeScript types of its params and result, named from openapi-typescript's
 * `operations`. Anything the SDK's call shape cannot express fails here, loudly.
 */

type Json = Record<string, unknown>;
export type Answer = 'data' | 'page' | 'body' | 'binary' | 'empty';

export type OperationDescription = {
  id: string;
  namespace: string;
  verb: string;
  method: string;
  path: string;
  summary: string;
  pathParams: string[];
  queryParams: string[];
  bodyMediaType: string | null;
  idempotencyKey: boolean;
  answer: Answer;
  paramsType: string;
  paramsOptional: boolean;
  resultType: string;
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Members of the Berth class: a namespace of the same name would hide them. */
const RESERVED_NAMESPACES = new Set(['paginate', 'waitForOperation', 'constructor', 'prototype']);
/** The JSON body travels under this key of the params object, so no parameter may be called so. */
const BODY_KEY = 'body';

function resolve(document: Json, value: unknown): Json {
  const ref = (value as Json | undefined)?.$ref;
  if (typeof ref !== 'string') return (value ?? {}) as Json;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Json)[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolve(document, target);
}

/** How the SDK unwraps a JSON answer: a list page, the `data` of `{data, meta}`, or the body as-is. */
function jsonAnswer(document: Json, schema: unknown): Answer {
  const properties = (resolve(document, schema).properties ?? {}) as Json;
  if ('data' in properties && 'pagination' in properties) return 'page';
  if ('data' in properties) return 'data';
  return 'body';
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

function describeAnswers(document: Json, id: string, responses: Json) {
  const typeOf = `operations['${id}']['responses']`;
  const parts: { answer: Answer; type: string }[] = [];
  const successes = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
  if (successes.length === 0) throw new Error(`${id}: no 2xx response`);
  for (const status of successes) {
    const content = (resolve(document, responses[status]).content ?? {}) as Json;
    const mediaTypes = Object.keys(content);
    const json = mediaTypes.find(isJson);
    if (mediaTypes.length === 0) parts.push({ answer: 'empty', type: 'undefined' });
    else if (!json) parts.push({ answer: 'binary', type: 'Response' });
    else {
      const answer = jsonAnswer(document, (content[json] as Json).schema);
      const body = `${typeOf}[${status}]['content']['${json}']`;
      const type = answer === 'page' ? `Page<${body}['data'][number]>` : answer === 'data' ? `${body}['data']` : body;
      parts.push({ answer, type });
    }
  }
  const kinds = new Set(parts.map((part) => part.answer).filter((answer) => answer !== 'empty'));
  if (kinds.size > 1) throw new Error(`${id}: its 2xx answers are of different kinds (${[...kinds].join(', ')})`);
  return { answer: [...kinds][0] ?? ('empty' as Answer), resultType: [...new Set(parts.map((part) => part.type))].join(' | ') };
}

function describeOperation(document: Json, path: string, method: string, operation: Json, shared: Json[]): OperationDescription {
  const id = operation.operationId;
  if (typeof id !== 'string' || !/^[a-z][A-Za-z0-9]*\.[a-z][A-Za-z0-9]*$/.test(id)) {
    throw new Error(`${method.toUpperCase()} ${path}: operationId ${JSON.stringify(id)} is not <namespace>.<verb>`);
  }
  const [namespace, verb] = id.split('.') as [string, string];
  if (RESERVED_NAMESPACES.has(namespace)) throw new Error(`${id}: the namespace "${namespace}" would hide a member of Berth`);
  const parameters = [...shared, ...((operation.parameters as Json[] | undefined) ?? [])].map((parameter) => resolve(document, parameter));
  const named = (place: string) => parameters.filter((parameter) => parameter.in === place);
  const pathParams = named('path').map((parameter) => String(parameter.name));
  const queryParams = named('query').map((parameter) => String(parameter.name));
  const clash = pathParams.find((name) => queryParams.includes(name));
  if (clash) throw new Error(`${id}: "${clash}" is both a path and a query parameter; the SDK flattens both into one params object`);
  if ([...pathParams, ...queryParams].includes(BODY_KEY)) throw new Error(`${id}: a parameter is named "${BODY_KEY}", the key of the request body`);

  const requestBody = operation.requestBody ? resolve(document, operation.requestBody) : undefined;
  const bodyMediaTypes = Object.keys((requestBody?.content ?? {}) as Json);
  const bodyMediaType = bodyMediaTypes.find(isJson) ?? bodyMediaTypes[0] ?? null;
  const bodyRequired = requestBody?.required === true;

  const types: string[] = [];
  if (pathParams.length) types.push(`operations['${id}']['parameters']['path']`);
  if (queryParams.length) types.push(`NonNullable<operations['${id}']['parameters']['query']>`);
  if (bodyMediaType) {
    const body = isJson(bodyMediaType) ? `NonNullable<operations['${id}']['requestBody']>['content']['${bodyMediaType}']` : 'BinaryBody';
    types.push(`{ ${BODY_KEY}${bodyRequired ? '' : '?'}: ${body} }`);
  }
  const requiredQuery = named('query').some((parameter) => parameter.required === true);
  const { answer, resultType } = describeAnswers(document, id, operation.responses as Json);
  return {
    id,
    namespace,
    verb,
    method: method.toUpperCase(),
    path,
    summary: String(operation.summary ?? ''),
    pathParams,
    queryParams,
    bodyMediaType,
    idempotencyKey: named('header').some((parameter) => String(parameter.name).toLowerCase() === 'idempotency-key'),
    answer,
    paramsType: types.length ? types.join(' & ') : 'NoParams',
    paramsOptional: pathParams.length === 0 && !requiredQuery && !bodyRequired,
    resultType,
  };
}

/** Every operation of the document, sorted by operationId so the output does not move when paths do. */
export function describeOperations(document: Json): OperationDescription[] {
  const descriptions: OperationDescription[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const shared = (item.parameters as Json[] | undefined) ?? [];
    for (const method of HTTP_METHODS) {
      if (item[method]) descriptions.push(describeOperation(document, path, method, item[method] as Json, shared));
    }
  }
  const seen = new Set<string>();
  for (const { id } of descriptions) {
    if (seen.has(id)) throw new Error(`operationId ${id} is used twice`);
    seen.add(id);
  }
  return descriptions.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
