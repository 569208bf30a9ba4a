# Makes Postgres and Redis reachable at DATABASE_URL and REDIS_URL. A local server that is installed
# but stopped is started; one that is missing is installed from Debian's packages when we run as
# root; anything else stops with a message that says what to do (ops/compose.yaml for Docker users).

url_part() { # url_part URL field default -> hostname|port|username|password|dbname of a URL
  node -e '
    const u = new URL(process.argv[1]);
    const v = { hostname: u.hostname.replace(/^\[|\]$/g, ""), port: u.port, username: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password), dbname: u.pathname.replace(/^\//, "") }[process.argv[2]];
    process.stdout.write(v || process.argv[3] || "");' "$1" "$2" "${3:-}"
}

port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

is_local_host() { case "$1" in 127.*|localhost|::1) return 0 ;; *) return 1 ;; esac; }

service_help() { # service_help NAME VARIABLE URL
  local shown # the password stays out of the message, which ends up in CI logs
  shown=$(printf '%s' "$3" | sed -E 's#//([^:@/]*):[^@/]*@#//\1:***@#')
  cat >&2 <<MSG
ops: $1 is not reachable at $2=$shown.
     Start one there, point $2 at one, or, with Docker: docker compose -f ops/compose.yaml up -d
MSG
}

apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then return 1; fi
  echo "ops: installing $* from Debian's packages" >&2
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d keeps the packages' own service start (which needs systemd) from failing the install
  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; local made_policy=1; fi
  # --no-install-recommends: postgresql's recommends pull in cron, logrotate and an exim4 mail server
  # one package-list refresh per run, however many peers get installed
  { [ -n "${ops_apt_updated:-}" ] || { apt-get update -qq >&2 && ops_apt_updated=1; }; } &&
    apt-get install -y -qq --no-install-recommends "$@" >&2
  local rc=$?
  [ -n "${made_policy:-}" ] && rm -f /usr/sbin/policy-rc.d
  return $rc
}

start_local_postgres() {
  if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    apt_install postgresql || return 1
  fi
  local version cluster_port=$1
  version=$(ls /usr/lib/postgresql | sort -V | tail -1)
  if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -q "^$version main$"; then
    pg_createcluster --port "$cluster_port" "$version" main >&2 || return 1
  fi
  echo "ops: starting Postgres $version" >&2
  pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || return 1
}

# The role and database the URL names: created through the local superuser (peer authentication as
# the postgres system user), so a fresh Debian install works without editing pg_hba.conf.
ensure_postgres_role() {
  local url=$1 user password
  user=$(url_part "$url" username postgres)
  password=$(url_part "$url" password)
  [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1 || return 0
  [ "$user" = postgres ] && [ -z "$password" ] && return 0
  local sql="DO \$\$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user') THEN
      CREATE ROLE \"$user\" LOGIN CREATEDB PASSWORD '$password';
    END IF; END \$\$;"
  (cd / && runuser -u postgres -- psql -q -X -v ON_ERROR_STOP=1 -c "$sql" >/dev/null 2>&1) || true
}

ensure_postgres() { # ensure_postgres URL [VARIABLE the messages name, DATABASE_URL by default]
  local url=$1 var=${2:-DATABASE_URL} host port
  host=$(url_part "$url" hostname 127.0.0.1)
  port=$(url_part "$url" port 5432)
  if ! port_open "$host" "$port"; then
    if ! is_local_host "$host" || ! start_local_postgres "$port"; then
      service_help Postgres "$var" "$url"; return 1
    fi
    for _ in $(seq 1 30); do port_open "$host" "$port" && break; sleep 0.5; done
    port_open "$host" "$port" || { service_help Postgres "$var" "$url"; return 1; }
  fi
  is_local_host "$host" && ensure_postgres_role "$url"
  return 0
}

ensure_redis() { # ensure_redis URL [VARIABLE the messages name, REDIS_URL by default]
  local url=$1 var=${2:-REDIS_URL} host port
  host=$(url_part "$url" hostname 127.0.0.1)
  port=$(url_part "$url" port 6379)
  port_open "$host" "$port" && return 0
  if is_local_host "$host"; then
    command -v redis-server >/dev/null 2>&1 || apt_install redis-server || { service_help Redis "$var" "$url"; return 1; }
    echo "ops: starting Redis on port $port" >&2
    redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no >&2 || true
    for _ in $(seq 1 20); do port_open "$host" "$port" && return 0; sleep 0.25; done
  fi
  service_help Redis "$var" "$url"
  return 1
}

# Command-line peers the test suite runs against our code (oathtool computes TOTP codes the way an
# authenticator app does, independently of our implementation; sshpass types a password into the real
# OpenSSH sftp client for the SFTP tests; zstd unpacks downloaded backups; gcc with a static libc
# builds the tenant's swapper of the backup attack test, test/helpers/attack/; Debian's python3 with
# httpx and pytest runs the Python SDK, which may depend on nothing PyPI alone has).
# /dev/null must be the null device: every child started with its output ignored writes there, and
# `ssh -F /dev/null` reads it as a configuration. Seen on a test machine once (2026-11-27): a regular
# file owned by www-data had taken its place, and the SFTP, scheduler and process tests failed in ways
# that did not name it. Put back, loudly, so the run says what it found.
ensure_null_device() {
  [ -c /dev/null ] && return 0
  echo "ops: /dev/null is not the null device ($(stat -c '%F, owner %U' /dev/null 2>/dev/null || echo missing)); making it again" >&2
  [ "$(id -u)" = 0 ] && rm -f /dev/null && mknod -m 666 /dev/null c 1 3 && [ -c /dev/null ] && return 0
  echo "ops: could not make /dev/null (needs root: mknod -m 666 /dev/null c 1 3)" >&2
  return 1
}

python_sdk_peers_present() {
  /usr/bin/python3 -c 'import httpx, pytest, setuptools, ensurepip' >/dev/null 2>&1 && /usr/bin/python3 -m pip --version >/dev/null 2>&1
}

ensure_test_tools() {
  ensure_null_device || return 1
  local tool missing=()
  # chromium: the panel's browser tests drive Debian's build through playwright-core (no browser download)
  for tool in oathtool:oathtool sshpass:sshpass sftp:openssh-client zstd:zstd gcc:gcc chromium:chromium ss:iproute2; do
    command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
  done
  compgen -G '/usr/lib/*/libc.a' >/dev/null || missing+=(libc6-dev)
  python_sdk_peers_present || missing+=(python3-httpx python3-pytest python3-pip python3-setuptools python3-venv)
  [ ${#missing[@]} -eq 0 ] && return 0
  apt_install "${missing[@]}" && command -v oathtool >/dev/null 2>&1 && command -v sshpass >/dev/null 2>&1 && command -v sftp >/dev/null 2>&1 \
    && command -v zstd >/dev/null 2>&1 && command -v gcc >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 && command -v ss >/dev/null 2>&1 && compgen -G '/usr/lib/*/libc.a' >/dev/null && python_sdk_peers_present && return 0
  echo "ops: the tests need oathtool, sshpass, the OpenSSH sftp client, zstd, gcc, Chromium and ss (the panel's browser tests), a static libc, and Debian's python3 with httpx, pytest, pip, setuptools and venv (the Python SDK); install them: apt-get install ${missing[*]}" >&2
  return 1
}
