/**
 * Hostile requests built from an operation of the API's own OpenAPI document: its path parameters,
 * its query parameters and its request body schema. Bounded: a fixed list of values per parameter
 * and per body field, no random search, so a run sends the same requests every time.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  default?: unknown;
};
type ParameterDoc = { name: string; in: string; schema?: JsonSchema };
type OperationDoc = {
  operationId: string;
  security?: Array<Record<string, unknown>>;
  parameters?: ParameterDoc[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = { paths: Record<string, Record<string, OperationDoc>> };

export type Operation = { method: string; path: string; operationId: string; doc: OperationDoc };

/** One request: `label` says what is hostile in it, so a failure names the input. */
export type HostileInput = { label: string; path: string; body?: { raw: string | Uint8Array; contentType?: string } };

const methods = new Set(['get', 'post', 'put', 'patch', 'delete']);
const unsafe = new Set(['post', 'put', 'patch', 'delete']);

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => methods.has(method))
      .map(([method, doc]) => ({ method, path, operationId: doc.operationId, doc })),
  );
}

/** Whether the operation needs credentials (the document's `security`; empty or absent: none). */
export function needsCredentials(operation: Operation): boolean {
  return (operation.doc.security ?? []).length > 0;
}

export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
}

const long = (length: number, unit = 'a') => unit.repeat(length);

/** Values put, already percent-encoded, into one path segment (the others keep a plausible value). */
export const hostilePathValues: Array<[label: string, value: string]> = [
  ['a broken percent-encoding', '%ZZ'],
  ['a truncated UTF-8 percent-encoding', '%E0%A4%A'],
  ['a NUL byte', '%00'],
  ['a negative number', '-1'],
  ['a fraction', '1.5'],
  ['one past the 32-bit integers', '2147483648'],
  ['a 40-digit number', long(40, '9')],
  ['a 2000-character value', long(2000)],
  ['a quote and SQL', "1'%20OR%20'1'%3D'1"],
  ['an encoded path traversal', '..%2F..%2Fetc%2Fpasswd'],
];

/** Raw query-string values (percent-encoded as sent) tried for each documented query parameter. */
const hostileQueryValues: Array<[label: string, value: string]> = [
  ['a broken percent-encoding', '%ZZ'],
  ['a NUL byte', '%00'],
  ['a negative number', '-1'],
  ['a fraction', '1.5'],
  ['a 40-digit number', long(40, '9')],
  ['a word where a number goes', 'abc'],
  ['an empty value', ''],
  ['a 5000-character value', long(5000)],
  ['an emoji', '%F0%9F%92%A9'],
];

/** A body-field value of the wrong type for `schema`. */
function wrongTyped(schema: JsonSchema): unknown {
  const type = typeOf(schema);
  if (type === 'string') return 12345;
  if (type === 'integer' || type === 'number') return '12';
  if (type === 'boolean') return 'true';
  if (type === 'array') return { 0: 'x' };
  if (type === 'object') return ['x'];
  return { unexpected: [true] };
}

/** Values of the field's own type that are still hostile. */
function hostileOfType(schema: JsonSchema): Array<[label: string, value: unknown]> {
  const type = typeOf(schema);
  if (type === 'string') {
    return [
      ['a 5000-character string', long(5000)],
      ['a NUL byte', 'a\u0000b'],
      ['a lone surrogate', '\ud800'],
    ];
  }
  if (type === 'integer' || type === 'number') {
    return [
      ['-1', -1],
      ['1e308', 1e308],
      ['2^31', 2147483648],
      ['a fraction', 1.5],
    ];
  }
  if (type === 'array')
    return [
      ['a 2000-item array', Array.from({ length: 2000 }, (_, index) => index)],
      ['an array of nulls', [null, null]],
    ];
  if (type === 'object') return [['an object with 500 keys', Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`k${index}`, index]))]];
  return [];
}

function typeOf(schema: JsonSchema): string | undefined {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return typeOf(variants.find((variant) => typeOf(variant) !== 'null') ?? variants[0]!);
  if (schema.allOf?.length) return typeOf(schema.allOf[0]!);
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.const !== undefined) return typeof schema.const;
  return undefined;
}

/** Strings tried, in order, for a field with a pattern: the first that matches is used. */
const patternCandidates = [
  'fuzz',
  'fuzz-site',
  'fuzz.example.test',
  'fuzz@example.test',
  '8.2',
  'en_US',
  'A',
  'a',
  '1',
  'production',
  'fuzz_1',
  'example.test',
  '0 3 * * *',
];

/** A value the schema accepts, as far as a cheap guess goes (patterns are tried, not solved). */
export function sampleOf(schema: JsonSchema, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return sampleOf(variants.find((variant) => typeOf(variant) !== 'null') ?? variants[0]!, depth);
  if (schema.allOf?.length) return sampleOf(schema.allOf[0]!, depth);
  const type = typeOf(schema);
  if (type === 'object') {
    if (depth > 6) return {};
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleOf(property, depth + 1)]));
  }
  if (type === 'array') return schema.minItems && schema.items ? Array.from({ length: schema.minItems }, () => sampleOf(schema.items!, depth + 1)) : [];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'null') return null;
  if (type !== 'string') return 'fuzz';
  if (schema.format === 'email') return 'fuzz@example.test';
  if (schema.format === 'uri' || schema.format === 'url') return 'http://127.0.0.1:9/fuzz';
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'date-time') return new Date(0).toISOString();
  if (schema.format === 'date') return '2026-01-01';
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    const match = patternCandidates.find((candidate) => pattern.test(candidate));
    if (match) return match;
  }
  const text = 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
  return schema.maxLength === undefined ? text : text.slice(0, schema.maxLength);
}

const json = (value: unknown) => ({ raw: JSON.stringify(value), contentType: 'application/json' });
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Every string in `value` replaced by `replace(string)`. */
function mapStrings(value: unknown, replace: (text: string) => unknown): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, replace));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, replace)]));
  return value;
}

/**
 * The bodies sent to an unsafe operation: broken transport and wrong shapes first, then (unless
 * `transportOnly`) the schema's fields one by one.
 */
function hostileBodies(operation: Operation, transportOnly: boolean): Array<[label: string, body: NonNullable<HostileInput['body']>]> {
  const content = operation.doc.requestBody?.content ?? {};
  const schema = content['application/json']?.schema ?? { type: 'object', properties: {} };
  const guessed = sampleOf(schema);
  const sample = guessed !== null && typeof guessed === 'object' && !Array.isArray(guessed) ? (guessed as Record<string, unknown>) : {};
  const properties = Object.entries(schema.properties ?? {});
  const bodies: Array<[string, NonNullable<HostileInput['body']>]> = [
    ['malformed JSON', { raw: '{"name": ', contentType: 'application/json' }],
    ['JSON sent as text/plain', { raw: JSON.stringify(sample), contentType: 'text/plain' }],
    ['a form-encoded body', { raw: 'a=1&b[c]=2&b[c]=3', contentType: 'application/x-www-form-urlencoded' }],
    ['a multipart body without its boundary', { raw: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', contentType: 'multipart/form-data' }],
    ['an unknown charset', { raw: JSON.stringify(sample), contentType: 'application/json; charset=klingon' }],
    ['UTF-16 JSON', { raw: new Uint8Array(Buffer.from(JSON.stringify(sample), 'utf16le')), contentType: 'application/json; charset=utf-16' }],
    ['binary bytes as JSON', { raw: new Uint8Array([0xff, 0xfe, 0x00, 0x7b, 0x80, 0x81]), contentType: 'application/json' }],
    ['a JSON array body', json([sample])],
    ['a JSON string body', json('fuzz')],
    ['a JSON number body', json(2147483648)],
    ['a JSON null body', { raw: 'null', contentType: 'application/json' }],
    ['an empty object (every field missing)', json({})],
    [
      'the sample with extra fields',
      {
        raw: `${JSON.stringify(sample).slice(0, -1)}${properties.length > 0 ? ',' : ''}"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"extra_field":"x"}`,
        contentType: 'application/json',
      },
    ],
    ['a NUL byte in every string', json(mapStrings(sample, (text) => `${text}\u0000`))],
    ['every string 3000 characters long', json(mapStrings(sample, () => long(3000, 'é')))],
    ['a body over 16 kB', json({ ...sample, padding: long(20_000) })],
    ['4000 nested arrays', { raw: nested(4000), contentType: 'application/json' }],
    ['every field 3000 arrays deep', json(Object.fromEntries(properties.map(([name]) => [name, JSON.parse(nested(3000))])))],
    ['every field of the wrong type', json(Object.fromEntries(properties.map(([name, property]) => [name, wrongTyped(property)])))],
  ];
  if (operation.doc.requestBody && !content['application/json']) {
    // A file body (an upload): garbage bytes as each documented type, and JSON where bytes go.
    for (const type of Object.keys(content))
      bodies.push([`garbage bytes as ${type}`, { raw: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x13]), contentType: type }]);
    bodies.push(['JSON where a file goes', json(sample)]);
  }
  if (transportOnly) return bodies;
  for (const [name, property] of properties) {
    bodies.push([`${name} of the wrong type`, json({ ...sample, [name]: wrongTyped(property) })]);
    bodies.push([`${name} null`, json({ ...sample, [name]: null })]);
    for (const [label, value] of hostileOfType(property)) bodies.push([`${name} ${label}`, json({ ...sample, [name]: value })]);
  }
  return bodies;
}

/** Fills the path template: `hostile` for one parameter (raw, already encoded), the plausible value for the others. */
function fillPath(path: string, plausible: Record<string, string>, hostile?: { name: string; value: string }): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => (hostile?.name === name ? hostile.value : encodeURIComponent(plausible[name] ?? '1')));
}

/**
 * Every hostile request for one operation. `plausible` gives each path parameter a value that
 * reaches the route (a real id of the caller's, where there is one), so the body and query inputs
 * are not all stopped at a 404. `beforeAuthentication`: only what the server reads before it
 * checks credentials (the path, the raw body), for a caller an operation that needs them will refuse.
 */
export function hostileInputs(operation: Operation, plausible: Record<string, string>, options: { beforeAuthentication?: boolean } = {}): HostileInput[] {
  const inputs: HostileInput[] = [];
  const base = fillPath(operation.path, plausible);
  inputs.push({ label: 'plausible path, no body', path: base });
  for (const name of pathParameters(operation.path)) {
    for (const [label, value] of hostilePathValues)
      inputs.push({ label: `path {${name}}: ${label}`, path: fillPath(operation.path, plausible, { name, value }) });
  }
  const query = options.beforeAuthentication ? [] : (operation.doc.parameters ?? []).filter((parameter) => parameter.in === 'query');
  for (const parameter of query) {
    for (const [label, value] of hostileQueryValues)
      inputs.push({ label: `query ${parameter.name}: ${label}`, path: `${base}?${encodeURIComponent(parameter.name)}=${value}` });
    inputs.push({ label: `query ${parameter.name} given twice`, path: `${base}?${parameter.name}=1&${parameter.name}=2` });
    inputs.push({ label: `query ${parameter.name} as a nested key`, path: `${base}?${parameter.name}[a][b]=1` });
  }
  if (!options.beforeAuthentication && (query.length > 0 || operation.method === 'get'))
    inputs.push({ label: 'an unknown query parameter', path: `${base}?fuzz_unknown=%00&__proto__[x]=1` });
  if (unsafe.has(operation.method)) {
    for (const [label, body] of hostileBodies(operation, options.beforeAuthentication ?? false)) inputs.push({ label: `body: ${label}`, path: base, body });
  }
  return inputs;
}
