# A real OpenSSH server on loopback that stands in for a hosting node the control plane enrolls over
# SSH. It has its own port (BERTH_TEST_SSH_PORT, 2222 by default), host key, config and
# authorized_keys under $BERTH_TEST_STATE/sshd; the machine's own sshd and its config stay untouched.
# Logins: root with the test key (enrollment installs a systemd unit), and the local user berth-node
# with the test key or a password. berth-node exists for the password tests only; its password is
# random per machine (kept in the state directory), since the machine's own sshd may accept passwords.
# Exports for the tests: BERTH_TEST_SSH_HOST, _PORT, _KEY (private key; .pub beside it),
# _HOST_KEY (the server's public host key), _USER (berth-node), _PASSWORD.
# Needs ops/lib/services.sh (apt_install) and ops/lib/test-peers.sh.

ensure_test_sshd() {
  local dir port=${BERTH_TEST_SSH_PORT:-2222} config
  dir=$(test_state_dir sshd) || return 1
  config=$(test_sshd_config "$dir" "$port")
  if ! test_sshd_is_up "$dir" "$port" "$config"; then
    with_peer_lock sshd start_test_sshd "$dir" "$port" "$config" || return 1
  fi
  export BERTH_TEST_SSH_HOST=127.0.0.1 BERTH_TEST_SSH_PORT=$port BERTH_TEST_SSH_USER=berth-node
  export BERTH_TEST_SSH_KEY=$dir/client_ed25519 BERTH_TEST_SSH_HOST_KEY=$dir/ssh_host_ed25519_key.pub
  BERTH_TEST_SSH_PASSWORD=$(cat "$dir/berth-node.password") || return 1
  export BERTH_TEST_SSH_PASSWORD
}

test_sshd_config() { # test_sshd_config DIR PORT -> the sshd_config text
  cat <<CONFIG
# berth-managed: the test sshd of ops/lib/sshd.sh, rewritten on every run
Port $2
ListenAddress 127.0.0.1
HostKey $1/ssh_host_ed25519_key
PidFile $1/sshd.pid
AuthorizedKeysFile $1/authorized_keys/%u
AllowUsers root berth-node
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication yes
KbdInteractiveAuthentication no
# no PAM: passwords are checked against /etc/shadow, and no session module needs systemd or logind
UsePAM no
MaxAuthTries 6
# tests open several connections at once
MaxStartups 64:30:128
PrintMotd no
Subsystem sftp internal-sftp
CONFIG
}

# Up, ours, and running the current config: the pid file's process is an sshd started with our
# config file and the port answers.
test_sshd_is_up() { # test_sshd_is_up DIR PORT CONFIG
  local dir=$1 pid
  [ -f "$dir/sshd_config" ] && [ "$(cat "$dir/sshd_config")" = "$3" ] || return 1
  [ -f "$dir/berth-node.password" ] && [ -f "$dir/client_ed25519" ] || return 1
  pid=$(cat "$dir/sshd.pid" 2>/dev/null) && [ -n "$pid" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "-f $dir/sshd_config" || return 1
  port_open 127.0.0.1 "$2"
}

start_test_sshd() { # start_test_sshd DIR PORT CONFIG (under the sshd lock)
  local dir=$1 port=$2 config=$3 pid password
  test_sshd_is_up "$dir" "$port" "$config" && return 0 # started by another run while this one waited
  if [ ! -x /usr/sbin/sshd ] || ! command -v ssh-keygen >/dev/null 2>&1; then
    local fresh_install=''
    [ -x /usr/sbin/sshd ] || fresh_install=1
    apt_install openssh-server openssh-client || {
      echo "ops: the tests need an OpenSSH server as the node to enroll; install it: apt-get install openssh-server openssh-client" >&2
      return 1; }
    if [ -n "$fresh_install" ]; then
      # installed for the tests only: the machine's own sshd (port 22) must not start at the next boot
      touch /etc/ssh/sshd_not_to_be_run
      echo "ops: installed openssh-server for the test sshd only; /etc/ssh/sshd_not_to_be_run keeps the machine's own sshd off (remove it to use that one)" >&2
    fi
  fi
  # sshd reads authorized_keys as the user logging in: the directory must stay readable (keys only)
  chmod 755 "$dir"
  mkdir -p "$dir/authorized_keys" /run/sshd && chmod 755 "$dir/authorized_keys" || return 1
  [ -f "$dir/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -C berth-test-sshd -f "$dir/ssh_host_ed25519_key" || return 1
  [ -f "$dir/client_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C berth-test-client -f "$dir/client_ed25519" || return 1
  local user
  for user in root berth-node; do
    cp "$dir/client_ed25519.pub" "$dir/authorized_keys/$user" && chmod 644 "$dir/authorized_keys/$user" || return 1
  done
  if ! id berth-node >/dev/null 2>&1; then
    echo "ops: creating the local user berth-node (password logins of the test sshd)" >&2
    useradd --create-home --shell /bin/bash --comment 'Berth test node (ops/lib/sshd.sh)' berth-node || return 1
  fi
  if [ ! -s "$dir/berth-node.password" ]; then
    (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' > "$dir/berth-node.password") || return 1
  fi
  password=$(cat "$dir/berth-node.password")
  printf 'berth-node:%s\n' "$password" | chpasswd || return 1

  printf '%s\n' "$config" > "$dir/sshd_config.next"
  if ! /usr/sbin/sshd -t -f "$dir/sshd_config.next" 2>"$dir/sshd.log.check"; then
    echo "ops: the test sshd's config is refused by sshd -t:" >&2; cat "$dir/sshd.log.check" >&2
    return 1
  fi
  rm -f "$dir/sshd.log.check"
  # an older run's sshd of ours (another port or config) goes; anything else on the port is not ours
  pid=$(cat "$dir/sshd.pid" 2>/dev/null) || pid=''
  if [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "-f $dir/sshd_config"; then
    if [ "$(sed -n 's/^Port //p' "$dir/sshd_config")" != "$port" ] && port_open 127.0.0.1 "$port"; then
      test_sshd_port_taken "$port"; return 1
    fi
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if port_open 127.0.0.1 "$port"; then test_sshd_port_taken "$port"; return 1; fi
  mv "$dir/sshd_config.next" "$dir/sshd_config"
  echo "ops: starting the test sshd on 127.0.0.1:$port (log: $dir/sshd.log)" >&2
  # sshd detaches itself; setsid keeps it out of this run's session from the start
  setsid /usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log" </dev/null >/dev/null 2>&1 || {
    echo "ops: the test sshd did not start; last lines of $dir/sshd.log:" >&2; tail -n 10 "$dir/sshd.log" >&2; return 1; }
  for _ in $(seq 1 40); do
    test_sshd_is_up "$dir" "$port" "$config" && return 0
    sleep 0.25
  done
  echo "ops: the test sshd does not answer on 127.0.0.1:$port; last lines of $dir/sshd.log:" >&2
  tail -n 10 "$dir/sshd.log" >&2
  return 1
}

test_sshd_port_taken() {
  echo "ops: port $1 on 127.0.0.1 is taken by another program; set BERTH_TEST_SSH_PORT to a free port for the test sshd" >&2
}
