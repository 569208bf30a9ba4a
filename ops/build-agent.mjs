// Bundles the agent (agent/main.ts and everything it imports) into one ESM file that node enrollment
// uploads to a node: .build/berth-agent.mjs (AGENT_BUNDLE_PATH). Run with `npm run build:agent`.
// The node needs only Node >= 22 and this file: no node_modules, no native addons.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const outfile = path.join(root, process.argv[2] ?? '.build/berth-agent.mjs');
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

const started = Date.now();
const result = await build({
  entryPoints: [path.join(root, 'agent/main.ts')],
  outfile,
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
  plugins: [withoutUnusedDockerParts],
  // ssh2's optional native speed-ups: required inside try/catch, so a node without them (every node:
  // install scripts are off) uses ssh2's pure-JS code. Bundling cpu-features would fail on its .node file.
  external: ['cpu-features'],
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
});
const bytes = fs.statSync(outfile).size;
const inputs = Object.keys(result.metafile.inputs).length;
console.log(
  `build-agent: ${path.relative(root, outfile)} ${(bytes / 1024).toFixed(0)} KiB from ${inputs} modules, version ${version} (${Date.now() - started} ms)`,
);
