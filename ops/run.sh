#!/usr/bin/env bash
# Entry point of every npm script: make the machine ready (Node >= 22, Postgres, Redis, and for the
# tests podman, the test images and a test sshd), then run the command. Values in a .env file at
# the project root are exported first.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ -f .env ]; then set -a; . ./.env; set +a; fi
. ops/lib/node.sh
. ops/lib/services.sh
. ops/lib/test-peers.sh
. ops/lib/podman.sh
. ops/lib/images.sh
. ops/lib/sshd.sh
. ops/lib/powerdns.sh
. ops/lib/pebble.sh
. ops/lib/checks.sh
. ops/lib/panel.sh
. ops/lib/agent-bundle.sh
. ops/lib/benches.sh
ensure_node "$root"
ensure_node_modules "$root"

cmd=${1:?usage: ops/run.sh start|api|worker|agent|build:agent|build:panel|migrate|berth|test|bench|typecheck|check|lint|format}
shift
if [ "$cmd" = typecheck ]; then exec node node_modules/typescript/bin/tsc --noEmit -p .; fi
if [ "$cmd" = check ]; then run_checks; exit; fi
if [ "$cmd" = lint ]; then check_lint && check_layers; exit; fi
if [ "$cmd" = format ]; then exec node node_modules/prettier/bin/prettier.cjs --write --log-level warn .; fi
# the whole suite starts with the code's shape: a wrong import, a lint error or an unformatted file fails it
if [ "$cmd" = test ] && [ "$#" -eq 0 ]; then run_checks; fi
# The agent talks to a control plane and a Docker Engine API, never to Postgres or Redis. It runs as
# nodes run it: the bundle (about 40 MB less resident than from source, which loads the TypeScript
# stripper and every module file by file), rebuilt first when its sources changed.
# The flags are a node unit's (AGENT_NODE_FLAGS in workers/nodes/agent-install.ts).
if [ "$cmd" = agent ]; then ensure_agent_bundle "$root" && exec node --max-semi-space-size=1 --optimize-for-size "$(agent_bundle_path)" "$@"; fi
if [ "$cmd" = build:agent ]; then exec node ops/build-agent.mjs "$@"; fi
if [ "$cmd" = build:panel ]; then ensure_panel "$root" --force; exit; fi
# the API serves the web panel at /: built here when its sources changed (about 1 s)
case "$cmd" in start | api | test | bench) timed "web panel" ensure_panel "$root" ;; esac
# enrollment uploads the agent bundle (workers) and `berth start` runs it as the local agent
case "$cmd" in start | worker) timed "agent bundle" ensure_agent_bundle "$root" ;; esac

db_var=DATABASE_URL redis_var=REDIS_URL
if [ "$cmd" = test ]; then
  # The suite uses its own database and Redis database so it never touches development data.
  export DATABASE_URL=${TEST_DATABASE_URL:-postgres://berth:berth@127.0.0.1:5432/berth_test}
  export REDIS_URL=${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}
  # A message must name the variable that changes the address: here DATABASE_URL is overridden.
  db_var=TEST_DATABASE_URL redis_var=TEST_REDIS_URL
elif [ "$cmd" = bench ]; then
  # Benches neither see what the tests leave behind (a schedule due in the tests' database crashed
  # the scheduler bench) nor leave their thousands of rows to the tests.
  export DATABASE_URL=${BENCH_DATABASE_URL:-postgres://berth:berth@127.0.0.1:5432/berth_bench}
  export REDIS_URL=${BENCH_REDIS_URL:-redis://127.0.0.1:6379/14}
  db_var=BENCH_DATABASE_URL redis_var=BENCH_REDIS_URL
fi
ensure_postgres "${DATABASE_URL:-postgres://berth:berth@127.0.0.1:5432/berth}" "$db_var"
ensure_redis "${REDIS_URL:-redis://127.0.0.1:6379/0}" "$redis_var"
if [ "$cmd" = test ] || [ "$cmd" = bench ]; then
  ensure_test_tools
  # the agent's peers: a Docker Engine API (podman), the images its tests run, an SSH node to enroll
  timed "Docker Engine API (DOCKER_SOCKET)" ensure_podman
  timed "test images" ensure_test_images
  timed "test sshd" ensure_test_sshd
  timed "test PowerDNS" ensure_test_powerdns
  timed "Pebble (ACME)" ensure_test_pebble
fi

# the local agent's node runs sites from the WordPress images (built offline once)
if [ "$cmd" = start ]; then timed "WordPress images for the local node" ensure_local_site_images; fi

case "$cmd" in
  start)   exec node cli/berth.ts start "$@" ;;
  api)     exec node cli/berth.ts api "$@" ;;
  worker)  exec node cli/berth.ts worker "$@" ;;
  migrate) exec node cli/berth.ts migrate "$@" ;;
  berth)   exec node cli/main.ts "$@" ;;
  test)    exec node node_modules/vitest/vitest.mjs run "$@" ;;
  # benchmarks print measurements; they are not timed tests (default: every test/bench/*.bench.ts)
  bench)   [ "$#" -gt 0 ] || set -- test/bench/*.bench.ts
           run_benches "$@" ;;
  *) echo "ops/run.sh: unknown command $cmd" >&2; exit 2 ;;
esac
