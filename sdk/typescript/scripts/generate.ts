/**
 * Writes src/generated/ from the committed OpenAPI snapshot: schema.ts by openapi-typescript,
 * operations.ts and api.ts by our own emitter. Every file goes through prettier with the repository's
 * settings, so a run on an unchanged snapshot changes nothing.
 *
 *   node sdk/typescript/scripts/generate.ts [--spec docs/openapi.json] [--out sdk/typescript/src/generated]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import prettier from 'prettier';
import { describeOperations } from './describe-operations.ts';
import { GENERATED_NOTICE, renderApiModule, renderOperationsModule } from './render-modules.ts';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = path.resolve(packageRoot, '../..');

export async function generate(specFile: string, outDir: string): Promise<string[]> {
  const document = JSON.parse(fs.readFileSync(specFile, 'utf8')) as Record<string, unknown>;
  const operations = describeOperations(document);
  const schema = astToString(await openapiTS(document as unknown as OpenAPI3, { silent: true }));
  const files: Record<string, string> = {
    'schema.ts': `${GENERATED_NOTICE}/* eslint-disable */\n${schema}`,
    'operations.ts': renderOperationsModule(operations),
    'api.ts': renderApiModule(operations),
  };
  // the repository's prettier settings, whatever directory the files are written to
  const options = (await prettier.resolveConfig(path.join(repositoryRoot, 'package.json'))) ?? {};
  fs.mkdirSync(outDir, { recursive: true });
  for (const [name, source] of Object.entries(files)) {
    fs.writeFileSync(path.join(outDir, name), await prettier.format(source, { ...options, parser: 'typescript' }));
  }
  return Object.keys(files);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      spec: { type: 'string', default: path.join(repositoryRoot, 'docs/openapi.json') },
      out: { type: 'string', default: path.join(packageRoot, 'src/generated') },
    },
  });
  const written = await generate(path.resolve(values.spec), path.resolve(values.out));
  console.log(`wrote ${written.join(', ')} to ${path.relative(process.cwd(), path.resolve(values.out)) || '.'}`);
}
