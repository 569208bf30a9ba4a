# Puts a Node >= 22 first on PATH. The system Node may be older (Debian 12's is 18, past its end of
# life); the npm registry's node-linux-<arch> package carries an official Node 24 binary, which is
# installed once into .tools/ next to the project.
ensure_node() {
  local root=$1 major=0
  if command -v node >/dev/null 2>&1; then
    major=$(node -p 'process.versions.node.split(".")[0]')
  fi
  if [ "$major" -ge 22 ]; then return 0; fi
  local arch
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) echo "ops: Node $major is too old and no Node 24 package exists for $(uname -m); install Node >= 22.12" >&2; return 1 ;;
  esac
  local dir="$root/.tools/node24"
  local bin="$dir/node_modules/node-linux-$arch/bin"
  if [ ! -x "$bin/node" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "ops: Node >= 22.12 is required and npm is missing to install it; install Node 24" >&2
      return 1
    fi
    echo "ops: system Node is $major (< 22); installing Node 24 (npm package node-linux-$arch@24) into .tools/" >&2
    mkdir -p "$dir"
    npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      --prefix "$dir" "node-linux-$arch@24" >&2
  fi
  export PATH="$bin:$PATH"
}

# npm leaves out an optional dependency whose "engines" the Node running npm does not meet, without
# failing: `npm ci` under Debian's Node 18 skips rolldown's native binding (it wants Node >= 20.19),
# and vitest, which bundles with rolldown, then cannot start. When an optional package that fits
# this machine (os, cpu, libc) and that an installed package asks for is missing, install again with
# the Node now first on PATH. Once per install: the checksum of npm's own record of the install is
# kept, so a package npm still leaves out under that Node is reported instead of reinstalled forever.
ensure_node_modules() {
  local root=$1 missing stamp="$1/node_modules/.berth-reinstalled"
  [ -f "$root/package-lock.json" ] && [ -f "$root/node_modules/.package-lock.json" ] || return 0
  missing=$(cd "$root" && node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages;
    const has = (key) => fs.existsSync(key + "/package.json");
    const libc = process.platform !== "linux" ? null : process.report.getReport().header.glibcVersionRuntime ? "glibc" : "musl";
    const fits = (list, v) => !list || v === null || ((list.every((x) => x.startsWith("!")) || list.includes(v)) && !list.includes("!" + v));
    const wanted = new Set();
    for (const [key, pkg] of Object.entries(lock)) if (key === "" || has(key)) Object.keys(pkg.optionalDependencies || {}).forEach((n) => wanted.add(n));
    for (const [key, pkg] of Object.entries(lock)) {
      const name = key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
      if (pkg.optional && key && wanted.has(name) && !has(key) && fits(pkg.os, process.platform) && fits(pkg.cpu, process.arch) && fits(pkg.libc, libc)) console.log(name);
    }') || return 0 # a check that cannot run must not stop the command; a real gap shows up anyway
  [ -z "$missing" ] && return 0
  missing=${missing//$'\n'/ }
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(cksum < "$root/node_modules/.package-lock.json")" ]; then
    echo "ops: npm left out $missing even under Node $(node -v); continuing" >&2
    return 0
  fi
  echo "ops: npm left out $missing (installed under an older Node); reinstalling with Node $(node -v)" >&2
  # --no-deprecation: an older npm (Debian's 9) warns about its own url.parse() under Node 24
  (cd "$root" && NODE_OPTIONS="${NODE_OPTIONS:-} --no-deprecation" npm ci --no-audit --no-fund --loglevel=error) >&2
  cksum < "$root/node_modules/.package-lock.json" > "$stamp"
}
