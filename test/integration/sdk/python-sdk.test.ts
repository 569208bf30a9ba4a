import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOperationSamples } from '../../helpers/operation-samples.ts';
import { startPrism, type RunningPrism } from '../../helpers/prism.ts';
import { runProgram, type ProgramRun } from '../../helpers/run-program.ts';
import { useTempDirs } from '../../helpers/temp-dirs.ts';

/**
 * The Python SDK (sdk/python) is tested by its own pytest suite; this file runs it inside `npm test`
 * with Debian's interpreter (python3-httpx, python3-pytest), plus the generation check and an offline
 * install. A failure shows pytest's own output.
 */
const PYTHON = '/usr/bin/python3';
const SDK_DIR = path.resolve('sdk/python');

/** Debian's python3, with the environment of the test (PATH, the temp dirs) and no .pyc files in the tree. */
function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<ProgramRun> {
  return runProgram(command, args, { cwd: options.cwd, inheritEnv: true, env: { PYTHONDONTWRITEBYTECODE: '1', ...options.env } });
}

function expectSuccess(result: ProgramRun): void {
  // the message is the command's own output, so a failing pytest reads as it does in a terminal
  if (result.code !== 0) expect.fail(result.output);
}

/** The same sampled requests the TypeScript SDK's Prism test sends, as a file pytest reads. */
async function writeSamples(file: string): Promise<void> {
  await writeOperationSamples(file);
  if (!fs.existsSync(file)) throw new Error(`writeOperationSamples(${file}) wrote no file`);
}

function documentedOperationCount(): number {
  const document = JSON.parse(fs.readFileSync('docs/openapi.json', 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> };
  return Object.values(document.paths).flatMap((item) => Object.values(item).filter((operation) => operation.operationId)).length;
}

describe('Python SDK (sdk/python)', () => {
  const tempDir = useTempDirs('berth-python-sdk-');
  let prism: RunningPrism;
  beforeAll(async () => {
    prism = await startPrism();
  });
  afterAll(async () => {
    await prism?.stop();
  });

  it('is generated from the committed docs/openapi.json (regenerating changes nothing)', async () => {
    expectSuccess(await run(PYTHON, ['-m', 'generator', '--check'], { cwd: SDK_DIR }));
  });

  it('passes its pytest suite, the request shape of every operation checked by a Prism mock', async () => {
    const samplesFile = path.join(tempDir(), 'operation-samples.json');
    await writeSamples(samplesFile);
    const pytest = await run(PYTHON, ['-m', 'pytest', 'tests', '-q', '-p', 'no:cacheprovider', '-rsw'], {
      cwd: SDK_DIR,
      // strict: without a Prism URL or samples the request-shape tests fail instead of skipping
      env: { BERTH_PRISM_URL: prism.url, BERTH_OPERATION_SAMPLES: samplesFile, BERTH_SDK_TESTS_STRICT: '1' },
    });
    expectSuccess(pytest);
    expect(pytest.output).not.toMatch(/\d+ skipped/);
  }, 180_000);

  it('installs offline with pip into a target directory, and imports from there', async () => {
    const target = path.join(tempDir(), 'site-packages');
    expectSuccess(await run(PYTHON, ['-m', 'pip', 'install', '--no-index', '--no-deps', '--quiet', '--target', target, SDK_DIR]));
    // from outside the repository, so `berth` can only come from the target
    const imported = await run(PYTHON, ['-c', 'import berth, sys; print(len(berth.OPERATIONS), berth.__file__)'], {
      cwd: tempDir(),
      env: { PYTHONPATH: target },
    });
    expectSuccess(imported);
    expect(imported.output).toContain(`${documentedOperationCount()} `);
    expect(imported.output).toContain(path.join(target, 'berth'));
  }, 180_000);

  it('installs with the plain `pip install ./sdk/python` into a venv that sees Debian’s httpx', async () => {
    const venv = path.join(tempDir(), 'venv');
    expectSuccess(await run(PYTHON, ['-m', 'venv', '--system-site-packages', venv]));
    // --no-index proves the plain command needs nothing from an index: no build requirements, httpx from Debian
    expectSuccess(await run(path.join(venv, 'bin/pip'), ['install', '--no-index', '--quiet', './sdk/python']));
    const imported = await run(path.join(venv, 'bin/python'), ['-c', 'import berth; print(berth.__file__)'], { cwd: tempDir() });
    expectSuccess(imported);
    expect(imported.output).toContain(path.join(venv, 'lib'));
  }, 180_000);
});
