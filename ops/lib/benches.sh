# `npm run bench`: every bench runs, whatever an earlier one did; a bench that has not ended after
# BENCH_TIMEOUT_SECONDS (default 1200) is stopped (a hung bench once kept the rest from running). The
# figures each bench reported (test/bench/report.ts, through BENCH_REPORT_FILE) are printed again at
# the end, then the benches that failed, and the exit status is non-zero if any did.

run_benches() { # run_benches BENCH_FILE...
  local report failed=() bench rc
  report=$(mktemp -t berth-bench-report.XXXXXX)
  for bench in "$@"; do
    echo "ops: bench $bench" >&2
    rc=0
    BENCH_REPORT_FILE=$report timeout --kill-after=30 "${BENCH_TIMEOUT_SECONDS:-1200}" node "$bench" || rc=$?
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then failed+=("$bench (did not end within ${BENCH_TIMEOUT_SECONDS:-1200} s)")
    elif [ "$rc" != 0 ]; then failed+=("$bench (exit $rc)"); fi
  done
  echo
  echo "ops: figures of $# bench file(s):"
  if [ -s "$report" ]; then cat "$report"; else echo "(none reported)"; fi
  rm -f "$report"
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "ops: ${#failed[@]} bench(es) failed:" >&2
    printf '  %s\n' "${failed[@]}" >&2
    return 1
  fi
}
