// Restores lockfile entries for optional platform packages that this machine's npm registry mirror
// does not carry. npm leaves them out of package-lock.json when it cannot fetch their metadata, and
// `npm ci` (npm 11) then refuses the lock as out of sync. On other platforms npm skips them by their
// os/cpu, which we read from the package name's `-<os>-<cpu>` suffix. Run after `npm install`:
//   node ops/complete-lockfile.mjs
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const platform = /-(darwin|linux|win32|freebsd|android)-(x64|arm64|arm|ia32)$/;

export function missingOptionalEntries(packages) {
  const missing = [];
  for (const [key, entry] of Object.entries(packages)) {
    for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
      const nested = `${key ? `${key}/` : ''}node_modules/${name}`;
      if (!packages[nested] && !packages[`node_modules/${name}`]) missing.push({ key: `node_modules/${name}`, name, range });
    }
  }
  return missing;
}

const added = [];
for (const { key, name, range } of missingOptionalEntries(lock.packages)) {
  const match = name.match(platform);
  const version = range.replace(/^[\^~=]/, '');
  if (!match || !/^\d+\.\d+\.\d+$/.test(version)) {
    console.error(`complete-lockfile: cannot infer an entry for ${name}@${range}; add it by hand`);
    process.exitCode = 1;
    continue;
  }
  lock.packages[key] = { version, cpu: [match[2]], license: 'MIT', optional: true, os: [match[1]] };
  added.push(`${name}@${version}`);
}
if (added.length > 0) {
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
}
console.log(added.length > 0 ? `complete-lockfile: added ${added.join(', ')}` : 'complete-lockfile: nothing missing');
