// Bundles the agent (agent/main.ts and everything it imports) into one ESM file that node enrollment
// uploads to a node and `berth start` runs as its local agent: .build/berth-agent.mjs
// (AGENT_BUNDLE_PATH). Run with `npm run build:agent`; `--if-changed` builds only when a file the last
// build read (or this script, or the installed packages) changed, by a hash kept beside the bundle.
// The node needs only Node >= 22 and this file: no node_modules, no native addons. What an idle agent
// does not need (ssh2 until an SFTP client connects, the command handlers and with them zod until the
// first command) is imported dynamically, which esbuild keeps in the same file but evaluates only at
// that first use. Keep zod out of what agent/main.ts imports statically (agent/README.md).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const ifChanged = args.includes('--if-changed');
const outfile = path.resolve(root, args.find((arg) => !arg.startsWith('--')) ?? '.build/berth-agent.mjs');
const stampFile = `${outfile}.sources.json`;
const ALWAYS_READ = ['ops/build-agent.mjs', 'package-lock.json'];

/** One hash of the files a build read, in order, by path and content. */
function sourcesHash(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    try {
      hash.update(fs.readFileSync(path.resolve(root, file)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

if (ifChanged && fs.existsSync(outfile)) {
  try {
    const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
    if (stamp.hash === sourcesHash(stamp.files)) process.exit(0);
  } catch {
    // no stamp or an unreadable one: build
  }
}
const { build } = await import('esbuild');
const partial = `${outfile}.${process.pid}.partial`;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  // not a git checkout: the version alone
}
const version = commit ? `${pkg.version}+${commit}` : pkg.version;

// Parts of dockerode the agent never uses, left out of the bundle:
// - BuildKit (gRPC sessions, protobuf progress decoding) serves image builds: ~100 modules, a third of
//   the bundle, and runtime .proto file reads that a bundle could not satisfy anyway;
// - Docker over SSH (docker-modem's ssh transport): the agent talks to a local unix socket. ~3 MB RSS.
const stubs = {
  dockerode: { './session': 'unsupported', './buildkit': '{ followProgress: unsupported }' },
  'docker-modem': { './ssh': 'unsupported' },
};
const withoutUnusedDockerParts = {
  name: 'without-unused-docker-parts',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/(session|buildkit|ssh)$/ }, (args) => {
      const owner = /[\\/](dockerode|docker-modem)[\\/]lib$/.exec(args.resolveDir)?.[1];
      return owner && stubs[owner][args.path]
        ? { path: `${owner}/${args.path.slice(2)}`, namespace: 'berth-stub', pluginData: stubs[owner][args.path] }
        : undefined;
    });
    builder.onLoad({ filter: /.*/, namespace: 'berth-stub' }, (args) => ({
      contents: `const unsupported = () => { throw new Error('${args.path} is not part of the berth agent bundle'); };\nmodule.exports = ${args.pluginData};`,
      loader: 'js',
    }));
  },
};

// zod's 60-odd translations of its error messages (z.locales): the agent speaks English, which zod
// registers from its schemas' own import. A fifth of the bundle, and about 1 MB of idle memory parsing it.
const withoutZodLocales = {
  name: 'without-zod-locales',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: 'zod/v4/locales', namespace: 'berth-empty' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'berth-empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

const started = Date.now();
const result = await build({
  entryPoints: [path.join(root, 'agent/main.ts')],
  // written beside and renamed into place: an agent starting meanwhile (tests start several) reads a whole file
  outfile: partial,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // CommonJS dependencies call require() for Node's built-ins and read __dirname: give the ESM bundle real ones.
  banner: {
    js: [
      "import { createRequire as __berthCreateRequire } from 'node:module';",
      "import { fileURLToPath as __berthFileURLToPath } from 'node:url';",
      'const require = __berthCreateRequire(import.meta.url);',
      'const __filename = __berthFileURLToPath(import.meta.url);',
      "const __dirname = __berthFileURLToPath(new URL('.', import.meta.url));",
    ].join('\n'),
  },
  define: { __BERTH_AGENT_VERSION__: JSON.stringify(version) },
  plugins: [withoutZodLocales, withoutUnusedDockerParts],
  // ssh2's optional native speed-ups: required inside try/catch, so a node without them (every node:
  // install scripts are off) uses ssh2's pure-JS code. Bundling cpu-features would fail on its .node file.
  external: ['cpu-features'],
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
fs.renameSync(partial, outfile);
const bytes = fs.statSync(outfile).size;
const inputs = Object.keys(result.metafile.inputs).length;
// paths relative to the project, so a moved checkout keeps its stamp
const files = [...ALWAYS_READ, ...Object.keys(result.metafile.inputs).map((input) => path.relative(root, path.resolve(process.cwd(), input)))]
  .filter((file) => !/^berth-(stub|empty):/.test(file))
  .sort();
fs.writeFileSync(`${stampFile}.${process.pid}.partial`, `${JSON.stringify({ hash: sourcesHash(files), files })}\n`);
fs.renameSync(`${stampFile}.${process.pid}.partial`, stampFile);
console.log(
  `build-agent: ${path.relative(root, outfile)} ${(bytes / 1024).toFixed(0)} KiB from ${inputs} modules, version ${version} (${Date.now() - started} ms)`,
);
