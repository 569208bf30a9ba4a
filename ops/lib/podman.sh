# The Docker Engine API that the agent drives, for the tests: podman's Docker-compatible service on a
# unix socket, set up as ARCHITECTURE.md "The machine you develop on" says (runc, ulimits of 1024).
# DOCKER_SOCKET names the socket for the tests. Set it yourself to use another engine (a real Docker
# works too): when it answers it is used as it is and podman is neither installed nor started.
# Needs ops/lib/services.sh (apt_install) and ops/lib/test-peers.sh.

berth_podman_socket=/run/podman/podman.sock
# The first line marks a containers.conf as ours: we rewrite ours, never someone else's.
berth_containers_conf_mark='# berth-managed: written by ops/lib/podman.sh; remove this line to keep your own edits'

docker_api_answers() { # docker_api_answers SOCKET: GET /_ping answers OK
  [ -S "$1" ] && [ "$(curl -s --max-time 3 --unix-socket "$1" http://docker/_ping 2>/dev/null)" = OK ]
}

ensure_podman() {
  local socket=${DOCKER_SOCKET:-$berth_podman_socket}
  # whichever engine answers, the tests' agents make their networks' metadata block with nft
  command -v nft >/dev/null 2>&1 || with_peer_lock nft ensure_nft || return 1
  if docker_api_answers "$socket"; then
    # a service whose working directory was deleted (a checkout removed under it) still answers
    # /_ping, but its conmon cannot start a container ("write child: broken pipe"): start another
    if [ "$socket" != "$berth_podman_socket" ] || ! podman_service_lost_its_directory "$socket"; then export DOCKER_SOCKET=$socket; return 0; fi
    echo "ops: podman's service on $socket runs in a deleted directory; restarting it" >&2
    pkill -f "podman system service --time=0 unix://$socket" && sleep 1
  fi
  if [ "$socket" != "$berth_podman_socket" ]; then
    echo "ops: no Docker Engine API answers at DOCKER_SOCKET=$socket (GET /_ping)." >&2
    echo "     Start that engine, or unset DOCKER_SOCKET to let ops/ run podman on $berth_podman_socket" >&2
    return 1
  fi
  command -v curl >/dev/null 2>&1 || apt_install curl || {
    echo "ops: the tests need curl to reach the Docker Engine API; install it: apt-get install curl" >&2; return 1; }
  with_peer_lock podman start_podman_service "$socket" || return 1
  export DOCKER_SOCKET=$socket
}

podman_service_lost_its_directory() { # podman_service_lost_its_directory SOCKET: our service's cwd is gone
  local pid
  for pid in $(pgrep -f "podman system service --time=0 unix://$1"); do
    case $(readlink "/proc/$pid/cwd") in *' (deleted)') return 0 ;; esac
  done
  return 1
}

start_podman_service() { # start_podman_service SOCKET
  local socket=$1 state log pid conf_env=()
  docker_api_answers "$socket" && return 0 # started by another run while this one waited
  if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
    # netavark + aardvark-dns: container networks where containers find each other by name (the
    # edge proxy reaches site containers); iptables: netavark's NAT. Recommends (buildah,
    # slirp4netns, fuse-overlayfs...) serve rootless use and are left out.
    apt_install podman runc netavark aardvark-dns iptables nftables ||
      { podman_help "podman is not installed and could not be installed"; return 1; }
  fi
  state=$(test_state_dir podman) || return 1
  log=$state/service.log
  write_containers_conf "$state" || return 1
  [ -n "${berth_containers_conf:-}" ] && conf_env=(CONTAINERS_CONF="$berth_containers_conf")
  mkdir -p "$(dirname "$socket")"
  rm -f "$socket" # left by a service that died; nothing answers on it (checked above, under the lock)
  echo "ops: starting podman's Docker-compatible API on $socket (log: $log)" >&2
  # its own session: it outlives this run and a Ctrl-C or CI's cleanup of the test's process group
  # 9>&-: the service must not inherit (and hold forever) the set-up lock of ops/lib/test-peers.sh
  # from /: it outlives this checkout, and conmon needs the service's working directory to exist
  (cd / && exec setsid env "${conf_env[@]}" podman system service --time=0 "unix://$socket" >>"$log" 2>&1 </dev/null 9>&-) &
  pid=$!
  for _ in $(seq 1 60); do
    docker_api_answers "$socket" && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  podman_help "podman system service did not answer GET /_ping on $socket within 30 s"
  echo "ops: last lines of $log:" >&2
  tail -n 15 "$log" >&2
  return 1
}

# /etc/containers/containers.conf as ARCHITECTURE.md measured it: crun fails on this cgroup setup,
# containers asking for higher ulimits than 1024 are refused, and the backend is named so that the
# CNI config file Debian's package leaves is not probed (a warning per start). A file that someone else wrote
# stays; when it does not select runc, the service gets ours through CONTAINERS_CONF instead.
write_containers_conf() { # write_containers_conf STATE_DIR; may set berth_containers_conf
  local state=$1 conf=/etc/containers/containers.conf content
  content="$berth_containers_conf_mark
[containers]
default_ulimits = [\"nofile=1024:1024\", \"nproc=1024:1024\"]

[engine]
runtime = \"runc\"

[network]
network_backend = \"netavark\""
  berth_containers_conf=
  if [ ! -e "$conf" ] || [ "$(head -n 1 "$conf")" = "$berth_containers_conf_mark" ]; then
    [ -e "$conf" ] && [ "$(cat "$conf")" = "$content" ] && return 0
    mkdir -p /etc/containers && printf '%s\n' "$content" > "$conf" && return 0
    echo "ops: cannot write $conf (podman's runtime settings); run as root" >&2
    return 1
  fi
  grep -Eq '^[[:space:]]*runtime[[:space:]]*=[[:space:]]*"runc"' "$conf" && return 0
  berth_containers_conf=$state/containers.conf
  printf '%s\n' "$content" > "$berth_containers_conf"
  echo "ops: $conf is not ours and does not select runc; the podman service uses $berth_containers_conf" >&2
}

# nft: the agent blocks cloud metadata addresses (169.254.0.0/16, fd00:ec2::254) for the node's
# networks with a table of its own (agent/runtime/metadata-block.ts), and refuses to run containers
# without it. A node needs the same package: apt-get install nftables.
ensure_nft() {
  command -v nft >/dev/null 2>&1 && return 0
  apt_install nftables && return 0
  echo "ops: the agent needs nft to block cloud metadata for site containers; install it: apt-get install nftables" >&2
  return 1
}

podman_help() {
  cat >&2 <<MSG
ops: the tests need a Docker Engine API (the agent drives containers through it): $1.
     Install podman (apt-get install podman runc netavark aardvark-dns iptables nftables) and run, as root:
       setsid podman system service --time=0 unix://$berth_podman_socket &
     or point DOCKER_SOCKET at the socket of a running Docker engine.
MSG
}
