import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;
export type SchemaIo = 'input' | 'output';

/** Where zod writes a named schema in one conversion, and where the document keeps it. */
const LOCAL_PREFIX = '#/$defs/';
const COMPONENT_PREFIX = '#/components/schemas/';

/**
 * Turns zod schemas into the document's JSON Schemas, with every named schema (declared with
 * `.meta({ id: 'Site' })` where the schema lives) written once under `components.schemas` and
 * referenced from each place it occurs, so generated clients get one `Site` type instead of a
 * copy per operation.
 */
export class SchemaComponents {
  private readonly defs = new Map<string, { def: JsonSchema; io: SchemaIo }>();

  /** The JSON Schema of `schema` as a request (`input`) or an answer (`output`). */
  convert(schema: z.ZodType, io: SchemaIo): JsonSchema {
    const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [id, def] of Object.entries($defs ?? {})) {
      pointAtComponents(def);
      const known = this.defs.get(id);
      // Refused at boot: one name must mean one shape. zod refuses two schemas of one id in one
      // conversion; this catches them across conversions, and a schema that reads differently as a
      // request than as an answer (defaults, closed objects): name the request's form apart.
      if (known && JSON.stringify(known.def) !== JSON.stringify(def))
        throw new Error(`The schema named ${id} has two shapes (as ${known.io} and as ${io}): give them different ids`);
      if (!known) this.defs.set(id, { def, io });
    }
    pointAtComponents(rest);
    return rest;
  }

  /** The `components.schemas` section, by name. */
  schemas(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.defs].sort(([a], [b]) => a.localeCompare(b)).map(([id, { def }]) => [id, def]));
  }
}

/** Points every `{$ref: '#/$defs/...'}` of a converted schema at its component. */
function pointAtComponents(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) pointAtComponents(item);
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && record.$ref.startsWith(LOCAL_PREFIX)) record.$ref = `${COMPONENT_PREFIX}${record.$ref.slice(LOCAL_PREFIX.length)}`;
    for (const value of Object.values(record)) pointAtComponents(value);
  }
}
