# A real PowerDNS authoritative server on loopback for the DNS tests: Debian's pdns-server with the
# sqlite3 backend, its own config, database and API key under $BERTH_TEST_STATE/powerdns, answering
# DNS on BERTH_TEST_DNS_PORT (5300) and its HTTP API on BERTH_TEST_PDNS_API_PORT (8081), both on
# 127.0.0.1 only. The machine's own pdns (if any) and its config stay untouched. dig (bind9-dnsutils)
# comes with it: the tests ask the server the way a resolver would.
# Exports for the tests: BERTH_TEST_PDNS_API_URL, BERTH_TEST_PDNS_API_KEY, BERTH_TEST_DNS_PORT.
# Needs ops/lib/services.sh (apt_install, port_open) and ops/lib/test-peers.sh.

ensure_test_powerdns() {
  local dir dns_port=${BERTH_TEST_DNS_PORT:-5300} api_port=${BERTH_TEST_PDNS_API_PORT:-8081} config key
  dir=$(test_state_dir powerdns) || return 1
  if [ ! -s "$dir/api.key" ]; then
    (umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=' > "$dir/api.key") || return 1
  fi
  key=$(cat "$dir/api.key")
  config=$(test_pdns_config "$dir" "$dns_port" "$api_port" "$key")
  if ! test_pdns_is_up "$dir" "$api_port" "$config" "$key"; then
    with_peer_lock powerdns start_test_pdns "$dir" "$dns_port" "$api_port" "$config" "$key" || return 1
  fi
  export BERTH_TEST_PDNS_API_URL=http://127.0.0.1:$api_port BERTH_TEST_PDNS_API_KEY=$key BERTH_TEST_DNS_PORT=$dns_port
}

test_pdns_config() { # test_pdns_config DIR DNS_PORT API_PORT KEY -> the pdns.conf text
  cat <<CONFIG
# berth-managed: the test PowerDNS of ops/lib/powerdns.sh, rewritten on every run
launch=gsqlite3
gsqlite3-database=$1/pdns.sqlite3
local-address=127.0.0.1
local-port=$2
api=yes
api-key=$4
webserver=yes
webserver-address=127.0.0.1
webserver-port=$3
webserver-allow-from=127.0.0.0/8
socket-dir=$1
guardian=no
daemon=no
disable-syslog=yes
loglevel=4
# answers change as the tests write records: no packet or query cache between a write and a dig
cache-ttl=0
negquery-cache-ttl=0
query-cache-ttl=0
zone-cache-refresh-interval=0
CONFIG
}

# Up, ours, and running the current config: the API answers with our key.
test_pdns_is_up() { # test_pdns_is_up DIR API_PORT CONFIG KEY
  [ -f "$1/pdns.conf" ] && [ "$(cat "$1/pdns.conf")" = "$3" ] || return 1
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -H "X-API-Key: $4" "http://127.0.0.1:$2/api/v1/servers/localhost")" = 200 ]
}

start_test_pdns() { # start_test_pdns DIR DNS_PORT API_PORT CONFIG KEY (under the powerdns lock)
  local dir=$1 dns_port=$2 api_port=$3 config=$4 key=$5 pid schema
  test_pdns_is_up "$dir" "$api_port" "$config" "$key" && return 0 # started by another run while this one waited
  if [ ! -x /usr/sbin/pdns_server ] || ! ls /usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql >/dev/null 2>&1 ||
    ! command -v sqlite3 >/dev/null 2>&1 || ! command -v dig >/dev/null 2>&1; then
    apt_install pdns-server pdns-backend-sqlite3 sqlite3 bind9-dnsutils || {
      echo "ops: the DNS tests need PowerDNS and dig; install them: apt-get install pdns-server pdns-backend-sqlite3 sqlite3 bind9-dnsutils" >&2
      return 1; }
  fi
  # an older run's server of ours goes (another port or config); anything else on the ports is not ours
  pid=$(cat "$dir/pdns.pid" 2>/dev/null) || pid=''
  if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "--config-dir=$dir"; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if port_open 127.0.0.1 "$api_port"; then
    echo "ops: port $api_port on 127.0.0.1 is taken by another program; set BERTH_TEST_PDNS_API_PORT to a free port for the test PowerDNS" >&2
    return 1
  fi
  schema=/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql
  if [ ! -s "$dir/pdns.sqlite3" ]; then
    sqlite3 "$dir/pdns.sqlite3" <"$schema" || { echo "ops: could not create the test PowerDNS database from $schema" >&2; return 1; }
  fi
  printf '%s\n' "$config" > "$dir/pdns.conf"
  echo "ops: starting the test PowerDNS (DNS 127.0.0.1:$dns_port, API 127.0.0.1:$api_port; log: $dir/pdns.log)" >&2
  # its own session: it outlives this run and a Ctrl-C or CI's cleanup of the test's process group
  # 9>&-: the daemon must not inherit (and hold forever) the set-up lock of ops/lib/test-peers.sh
  setsid /usr/sbin/pdns_server --config-dir="$dir" </dev/null >>"$dir/pdns.log" 2>&1 9>&- &
  echo $! > "$dir/pdns.pid"
  for _ in $(seq 1 60); do
    test_pdns_is_up "$dir" "$api_port" "$config" "$key" && return 0
    kill -0 "$(cat "$dir/pdns.pid")" 2>/dev/null || break
    sleep 0.25
  done
  echo "ops: the test PowerDNS does not answer on 127.0.0.1:$api_port; last lines of $dir/pdns.log:" >&2
  tail -n 15 "$dir/pdns.log" >&2
  return 1
}
