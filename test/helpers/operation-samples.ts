/**
 * A valid request for every operation of the OpenAPI document, for the SDKs' request-shape tests
 * against Prism: the minimal instance of each schema (required properties only, the first enum value,
 * a number in range, a string of the documented format and pattern). Deterministic, so the
 * TypeScript and Python SDK tests send the same requests.
 *
 * `writeOperationSamples(file)` writes them as JSON for the Python SDK's tests:
 *   [{operationId, method, path, pathParams, query, body, bodyMediaType}]
 * `method` upper case, `path` the template (`/v1/sites/{id}`), `body` null when the operation takes
 * none; for a binary media type `body` is a short text whose UTF-8 bytes are the body.
 *
 *   node test/helpers/operation-samples.ts [docs/openapi.json] out.json
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = Record<string, any>;

export type OperationSample = {
  operationId: string;
  method: string;
  path: string;
  pathParams: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  bodyMediaType: string | null;
};

/** Strings of a format, tried before anything is built from a pattern. */
const FORMAT_SAMPLES: Record<string, string> = {
  email: 'user@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  uri: 'https://example.com/hook',
  url: 'https://example.com/hook',
  hostname: 'example.com',
  ipv4: '192.0.2.10',
  ipv6: '2001:db8::1',
};

export const BINARY_SAMPLE = 'berth-sample';

function resolveRef(document: Json, schema: Json | undefined): Json {
  let node = schema ?? {};
  while (typeof node.$ref === 'string') {
    node = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((parent: Json, key: string) => parent[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  }
  return node;
}

/** A short string matching a simple regular expression: literals, escapes, classes, groups (first branch), quantifiers (fewest). */
export function stringFromPattern(pattern: string): string {
  let position = 0;
  const peek = () => pattern[position];
  const classChar = (escape: string): string => ({ d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' })[escape] ?? escape;

  function parseClass(): string {
    position++; // [
    const negated = peek() === '^';
    if (negated) position++;
    const members: string[] = [];
    while (peek() !== ']' && position < pattern.length) {
      let char = pattern[position++]!;
      if (char === '\\') char = classChar(pattern[position++]!);
      if (peek() === '-' && pattern[position + 1] !== ']') {
        position++;
        let end = pattern[position++]!;
        if (end === '\\') end = pattern[position++]!;
        members.push(char, end);
      } else members.push(char);
    }
    position++; // ]
    if (!negated) return members[0]!;
    const forbidden = new RegExp(`[${pattern.slice(pattern.lastIndexOf('[', position - 1) + 2, position - 1)}]`, 'u');
    return ['a', 'x', '0'].find((candidate) => !forbidden.test(candidate)) ?? 'a';
  }

  function parseAtom(): string {
    const char = peek()!;
    if (char === '[') return parseClass();
    if (char === '(') {
      position++;
      const lookahead = pattern.startsWith('?=', position) || pattern.startsWith('?!', position);
      if (pattern.startsWith('?:', position) || lookahead) position += 2;
      const inner = parseAlternatives();
      position++; // )
      return lookahead ? '' : inner;
    }
    position++;
    if (char === '\\') return classChar(pattern[position++]!);
    if (char === '.') return 'a';
    if (char === '^' || char === '$') return '';
    return char;
  }

  function repeatCount(): number {
    const char = peek();
    if (char === '?' || char === '*') return (position++, 0);
    if (char === '+') return (position++, 1);
    if (char === '{') {
      const close = pattern.indexOf('}', position);
      const least = Number(pattern.slice(position + 1, close).split(',')[0]);
      position = close + 1;
      return least;
    }
    return 1;
  }

  function parseSequence(): string {
    let out = '';
    while (position < pattern.length && peek() !== '|' && peek() !== ')') {
      const atom = parseAtom();
      out += atom.repeat(repeatCount());
    }
    return out;
  }

  function parseAlternatives(): string {
    const first = parseSequence();
    while (peek() === '|') {
      position++;
      parseSequence();
    }
    return first;
  }

  return parseAlternatives();
}

function sampleString(schema: Json, where: string): string {
  const candidates = [FORMAT_SAMPLES[schema.format as string], schema.pattern ? stringFromPattern(schema.pattern) : undefined, 'a'].filter(
    (candidate): candidate is string => candidate !== undefined,
  );
  const fits = (value: string) => (!schema.pattern || new RegExp(schema.pattern, 'u').test(value)) && value.length <= (schema.maxLength ?? Infinity);
  for (const candidate of candidates) {
    const padded = schema.pattern ? candidate : candidate.padEnd(schema.minLength ?? 0, 'a');
    if (fits(padded) && padded.length >= (schema.minLength ?? 0)) return padded;
  }
  throw new Error(`${where}: no sample string fits ${JSON.stringify(schema)}; add an override in test/helpers/operation-samples.ts`);
}

function sampleNumber(schema: Json): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -Infinity);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Infinity);
  // 1 reads as an id and a count alike; the range decides when it does not fit
  const value = 1 >= low && 1 <= high ? 1 : low > -Infinity ? Math.ceil(low) : Math.floor(high);
  return schema.multipleOf ? Math.ceil(value / schema.multipleOf) * schema.multipleOf : value;
}

/** The minimal instance of a JSON schema (OpenAPI 3.1). */
export function sampleSchema(document: Json, schemaOrRef: Json | undefined, where: string): unknown {
  const schema = resolveRef(document, schemaOrRef);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema && schema.default !== null && typeof schema.default !== 'object') return schema.default;
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part: Json) => sampleSchema(document, part, where)));
  const branches: Json[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const branch = branches.find((candidate) => resolveRef(document, candidate).type !== 'null') ?? branches[0];
    return sampleSchema(document, { ...schema, anyOf: undefined, oneOf: undefined, ...resolveRef(document, branch) }, where);
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const out: Json = {};
      for (const name of schema.required ?? []) out[name] = sampleSchema(document, schema.properties?.[name], `${where}.${name}`);
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, index) => sampleSchema(document, schema.items, `${where}[${index}]`));
    case 'string':
      return sampleString(schema, where);
    case 'integer':
    case 'number':
      return sampleNumber(schema);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** One valid request per operation, in document order. */
export function operationSamples(document: Json): OperationSample[] {
  const samples: OperationSample[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS.filter((name) => item[name])) {
      const operation = item[method];
      const id = operation.operationId as string;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter: Json) => resolveRef(document, parameter));
      const pick = (place: string, all: boolean) =>
        Object.fromEntries(
          parameters
            .filter((parameter) => parameter.in === place && (all || parameter.required))
            .map((parameter) => [parameter.name, sampleSchema(document, parameter.schema, `${id} ${place} ${parameter.name}`)]),
        );
      const content = (resolveRef(document, operation.requestBody).content ?? {}) as Json;
      const mediaTypes = Object.keys(content);
      const bodyMediaType = mediaTypes.find((type) => type.includes('json')) ?? mediaTypes[0] ?? null;
      const body =
        bodyMediaType === null ? null : bodyMediaType.includes('json') ? sampleSchema(document, content[bodyMediaType].schema, `${id} body`) : BINARY_SAMPLE;
      samples.push({
        operationId: id,
        method: method.toUpperCase(),
        path: template,
        pathParams: pick('path', true),
        query: pick('query', false),
        body,
        bodyMediaType,
      });
    }
  }
  return samples;
}

export function writeOperationSamples(file: string, specFile = 'docs/openapi.json'): OperationSample[] {
  const samples = operationSamples(JSON.parse(fs.readFileSync(specFile, 'utf8')));
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(samples, null, 2)}\n`);
  return samples;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [specFile, out] = process.argv.length > 3 ? process.argv.slice(2) : ['docs/openapi.json', process.argv[2]];
  if (!out) throw new Error('usage: node test/helpers/operation-samples.ts [docs/openapi.json] out.json');
  console.log(`${writeOperationSamples(out, specFile).length} operation samples written to ${out}`);
}
