# What the test peers (podman's Docker API, the test images, the test sshd) share: one state
# directory per machine, not per checkout, so two working trees never start two sshds on one port or
# build the same image twice; a lock per peer, so runs that start together take turns on the slow
# path; and a timer, so a slow start is visible in the log.
export BERTH_TEST_STATE=${BERTH_TEST_STATE:-/var/lib/berth-test}

test_state_dir() { # test_state_dir SUB -> prints the directory, created when missing
  local dir=$BERTH_TEST_STATE/$1
  if ! mkdir -p "$dir" 2>/dev/null; then
    echo "ops: cannot create $dir; run as root or set BERTH_TEST_STATE to a writable directory" >&2
    return 1
  fi
  printf '%s' "$dir"
}

with_peer_lock() { # with_peer_lock NAME COMMAND... : runs COMMAND holding NAME's lock (15 min at most)
  local name=$1 lock
  shift
  mkdir -p "$BERTH_TEST_STATE" 2>/dev/null || { test_state_dir . >/dev/null; return 1; }
  lock=$BERTH_TEST_STATE/$name.lock
  # the lock's descriptor lives only inside this group, so the command that ops/run.sh execs next
  # (vitest) never inherits a held lock
  {
    if ! flock -w 900 9; then
      echo "ops: another run has held $lock for 15 minutes while setting up $name; is it stuck?" >&2
      return 1
    fi
    "$@"
  } 9>"$lock"
}

timed() { # timed LABEL COMMAND... : runs COMMAND and prints how long it took
  local label=$1 start rc=0
  shift
  start=$EPOCHREALTIME
  "$@" || rc=$?
  [ "$rc" = 0 ] && awk -v a="$start" -v b="$EPOCHREALTIME" -v l="$label" \
    'BEGIN { printf "ops: %s ready (%.2f s)\n", l, b - a }' >&2
  return "$rc"
}
