# The web panel (panel/): built by Vite into panel/dist when its sources, the SDK it calls through or
# the installed packages changed since the last build. The stamp is a hash of those files.

panel_sources_hash() { # prints one hash of everything the panel's build reads
  local root=$1
  (cd "$root" && { find panel -path panel/dist -prune -o -type f -print; find sdk/typescript/src -type f; echo package-lock.json; } \
    | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
}

ensure_panel() { # ensure_panel ROOT [--force]: builds panel/dist unless it matches the sources
  local root=$1 stamp hash
  stamp="$root/panel/dist/.sources-hash"
  hash=$(panel_sources_hash "$root")
  if [ "${2:-}" != --force ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$hash" ]; then return 0; fi
  echo "ops: building the web panel (panel/ changed since the last build)" >&2
  (cd "$root" && node node_modules/vite/bin/vite.js build --config panel/vite.config.ts) || {
    echo "ops: the web panel did not build (vite build --config panel/vite.config.ts failed above)" >&2
    return 1
  }
  echo "$hash" >"$stamp"
}
