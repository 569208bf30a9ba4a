# Puts a Node >= 22 first on PATH. The system Node may be older (Debian's is 20, past its end of
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
