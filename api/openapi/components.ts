import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;
export type SchemaIo = 'input' | 'output';

/** Where zod writes a named schema in one conversion, and where the document keeps it. */
const LOCAL_PREFIX = '#/$defs/';
const COMPONENT_PREFIX = '#/components/schemas/';

type RefHolder = { $ref: string };

/**
 * Turns zod schemas into the document's JSON Schemas, with every named schema (declared with
 * `.meta({ id: 'Site' })` where the schema lives) written once under `components.schemas` and
 * referenced from each place it occurs, so generated clients get one `Site` type instead of a
 * copy per operation.
 *
 * A named schema can read differently as a request body than as an answer (defaults make fields
 * optional on the way in, answers are closed objects): such a schema gets a second component,
 * `<id>Input`, and only then.
 */
export class SchemaComponents {
  private readonly defs: Record<SchemaIo, Map<string, JsonSchema>> = { input: new Map(), output: new Map() };
  private readonly refs: Record<SchemaIo, RefHolder[]> = { input: [], output: [] };

  /** The JSON Schema of `schema` as a request (`input`) or an answer (`output`). */
  convert(schema: z.ZodType, io: SchemaIo): JsonSchema {
    const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [id, def] of Object.entries($defs ?? {})) {
      const known = this.defs[io].get(id);
      // zod refuses two schemas of one id in one conversion; this catches them across conversions.
      if (known && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`Two different schemas are named ${id}`);
      if (!known) {
        this.defs[io].set(id, def);
        this.refs[io].push(...refHolders(def));
      }
    }
    this.refs[io].push(...refHolders(rest));
    return rest;
  }

  /** The `components.schemas` section; also points every reference handed out at its component. */
  schemas(): Record<string, JsonSchema> {
    const inputName = this.inputNames();
    for (const holder of this.refs.output) holder.$ref = holder.$ref.replace(LOCAL_PREFIX, COMPONENT_PREFIX);
    for (const holder of this.refs.input) {
      const id = holder.$ref.startsWith(LOCAL_PREFIX) ? holder.$ref.slice(LOCAL_PREFIX.length) : undefined;
      if (id !== undefined) holder.$ref = `${COMPONENT_PREFIX}${inputName(id)}`;
    }
    const schemas: Record<string, JsonSchema> = Object.fromEntries(this.defs.output);
    for (const [id, def] of this.defs.input) schemas[inputName(id)] ??= def;
    return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  }

  /** `<id>` where a schema reads the same both ways (references included), else `<id>Input`. */
  private inputNames(): (id: string) => string {
    const { input, output } = this.defs;
    const differs = new Set([...input.keys()].filter((id) => output.has(id) && JSON.stringify(input.get(id)) !== JSON.stringify(output.get(id))));
    // A schema that refers to one that differs differs too: its reference will name the other component.
    for (let grew = true; grew;) {
      grew = false;
      for (const [id, def] of input) {
        if (differs.has(id) || !output.has(id)) continue;
        if (refHolders(def).some((holder) => differs.has(holder.$ref.slice(LOCAL_PREFIX.length)))) {
          differs.add(id);
          grew = true;
        }
      }
    }
    return (id) => (differs.has(id) ? `${id}Input` : id);
  }
}

/** Every `{$ref: '#/$defs/...'}` object in a converted schema, to be pointed at its component. */
function refHolders(node: unknown, found: RefHolder[] = []): RefHolder[] {
  if (Array.isArray(node)) {
    for (const item of node) refHolders(item, found);
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && record.$ref.startsWith(LOCAL_PREFIX)) found.push(record as RefHolder);
    for (const value of Object.values(record)) refHolders(value, found);
  }
  return found;
}
