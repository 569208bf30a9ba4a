# The agent bundle (ops/build-agent.mjs): what nodes are given at enrollment and what `berth start`
# runs as its local agent. Built when a file its last build read changed (a hash kept beside it in
# <bundle>.sources.json), so a checkout never hands out or runs an agent older than its sources.

agent_bundle_path() { # the bundle the control plane uses (AGENT_BUNDLE_PATH, as shared/config reads it)
  echo "${AGENT_BUNDLE_PATH:-.build/berth-agent.mjs}"
}

ensure_agent_bundle() { # ensure_agent_bundle ROOT [--force]
  local root=$1 flag=--if-changed
  [ "${2:-}" = --force ] && flag=
  (cd "$root" && node ops/build-agent.mjs $flag "$(agent_bundle_path)") || {
    echo "ops: the agent bundle did not build (node ops/build-agent.mjs failed above)" >&2
    return 1
  }
}
