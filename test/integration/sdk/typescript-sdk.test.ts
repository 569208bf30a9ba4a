import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Berth, OPERATIONS } from '../../../sdk/typescript/src/index.ts';
import { generate } from '../../../sdk/typescript/scripts/generate.ts';
import { operationSamples, type OperationSample } from '../../helpers/operation-samples.ts';
import { OPENAPI_SNAPSHOT, startPrism, type RunningPrism } from '../../helpers/prism.ts';

const run = promisify(execFile);
const SDK_DIR = path.resolve('sdk/typescript');
const GENERATED_DIR = path.join(SDK_DIR, 'src/generated');
const document = JSON.parse(fs.readFileSync(OPENAPI_SNAPSHOT, 'utf8'));

function documentedOperations(): { id: string; successes: number[] }[] {
  const out: { id: string; successes: number[] }[] = [];
  for (const item of Object.values(document.paths) as any[]) {
    for (const operation of Object.values(item) as any[]) {
      if (operation?.operationId)
        out.push({
          id: operation.operationId,
          successes: Object.keys(operation.responses)
            .filter((s) => /^2/.test(s))
            .map(Number),
        });
    }
  }
  return out;
}

describe('the generated SDK', () => {
  it('is what the generator writes from the committed snapshot, byte for byte', { timeout: 120_000 }, async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sdk-generated-'));
    try {
      const written = await generate(OPENAPI_SNAPSHOT, out);
      expect(written.sort()).toEqual(fs.readdirSync(GENERATED_DIR).sort());
      for (const file of written) {
        expect(fs.readFileSync(path.join(out, file), 'utf8'), `${file} differs: run node sdk/typescript/scripts/generate.ts`).toBe(
          fs.readFileSync(path.join(GENERATED_DIR, file), 'utf8'),
        );
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('has exactly the operations of the document', () => {
    const ids = documentedOperations().map((operation) => operation.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(Object.keys(OPERATIONS).sort()).toEqual([...ids].sort());
    const berth = new Berth({ baseUrl: 'http://127.0.0.1:9', token: 't' }) as any;
    for (const id of ids) {
      const [namespace, verb] = id.split('.') as [string, string];
      expect(typeof berth[namespace][verb], id).toBe('function');
    }
  });
});

function onlyTheAnswerViolates(violations: string | null | undefined): boolean {
  if (!violations) return false;
  return (JSON.parse(violations) as { location: string[] }[]).every((violation) => violation.location[0] === 'response');
}

describe('every operation against a Prism mock of the document', () => {
  let prism: RunningPrism;
  beforeAll(async () => {
    prism = await startPrism();
  });
  afterAll(async () => {
    await prism?.stop();
  });

  /** The panel's cookies and CSRF header where the document asks for them; Prism checks they are present. */
  const CREDENTIAL_HEADERS = { cookie: 'svc_access=sample-access; svc_refresh=sample-refresh', 'x-csrf-token': 'sample-csrf' };

  it('refuses a request the document does not allow (the control: Prism really checks)', async () => {
    let violations: string | null = null;
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      violations = response.headers.get('sl-violations');
      return response;
    };
    const berth = new Berth({ baseUrl: prism.url, token: 'sample-bearer-token', maxRetries: 0, fetch: recordingFetch });
    await expect(berth.sites.create({ body: { name: 'no php_version' } as any })).rejects.toMatchObject({ status: 422 });
    expect(violations).toContain('php_version');
  });

  it('sends each request as the document describes and reads its documented success', { timeout: 300_000 }, async () => {
    const samples = operationSamples(document);
    const successes = new Map(documentedOperations().map((operation) => [operation.id, operation.successes]));
    const seen: { status: number; violations: string | null }[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      seen.push({ status: response.status, violations: response.headers.get('sl-violations') });
      return response;
    };
    const berth = new Berth({ baseUrl: prism.url, token: 'sample-bearer-token', maxRetries: 0, fetch: recordingFetch }) as any;
    const failures: string[] = [];
    for (const sample of samples as OperationSample[]) {
      const [namespace, verb] = sample.operationId.split('.') as [string, string];
      const params = { ...sample.pathParams, ...sample.query, ...(sample.body === null ? {} : { body: sample.body }) };
      seen.length = 0;
      const call = async (headers: Record<string, string>) => {
        const answer = await berth[namespace][verb](params, { headers: { ...CREDENTIAL_HEADERS, ...headers } });
        if (answer instanceof Response) await answer.arrayBuffer();
      };
      try {
        await call({}).catch(async (error) => {
          // Prism's static mock of an answer can break the document's own pattern (eight-digit backup
          // codes): when only the answer was wrong, the request passed; a dynamic mock honours patterns
          if (!onlyTheAnswerViolates(seen.at(-1)?.violations)) throw error;
          await call({ prefer: 'dynamic=true' });
        });
      } catch (error) {
        const last = seen.at(-1);
        failures.push(`${sample.operationId}: ${(error as Error).message}${last?.violations ? ` violations: ${last.violations}` : ''}`);
        continue;
      }
      const last = seen.at(-1)!;
      if (last.violations) failures.push(`${sample.operationId}: sl-violations ${last.violations}`);
      if (!successes.get(sample.operationId)!.includes(last.status)) failures.push(`${sample.operationId}: status ${last.status}`);
    }
    expect(failures).toEqual([]);
    expect(samples.length).toBe(Object.keys(OPERATIONS).length);
  });
});

describe('the package', () => {
  it('packs with npm and a consumer script type-checks against it with tsc', { timeout: 180_000 }, async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-sdk-consumer-'));
    try {
      const tsc = path.resolve('node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', path.join(SDK_DIR, 'tsconfig.build.json')]);
      const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: SDK_DIR });
      const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
      expect(packed!.files.map((file) => file.path)).toContain('dist/index.d.ts');
      const installed = path.join(work, 'node_modules/@berth/sdk');
      fs.mkdirSync(installed, { recursive: true });
      await run('tar', ['-xzf', path.join(work, packed!.filename), '-C', installed, '--strip-components=1']);
      fs.copyFileSync(path.join(SDK_DIR, 'examples/consumer.ts'), path.join(work, 'consumer.ts'));
      fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
      fs.writeFileSync(
        path.join(work, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            lib: ['es2022', 'dom', 'dom.iterable'],
            types: [],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            noEmit: true,
          },
          files: ['consumer.ts'],
        }),
      );
      const check = await run(process.execPath, [tsc, '-p', work]).catch((error) => error);
      expect(`${check.stdout ?? ''}${check.stderr ?? ''}`).toBe('');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
