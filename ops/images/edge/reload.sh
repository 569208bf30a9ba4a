#!/bin/sh
# berth-edge-reload: checks the configuration (nginx -t; on error prints nginx's message on stderr
# and exits 1, the running configuration stays), reloads, and returns once workers started from
# the new configuration are running and the idle old ones are gone, so a request on a new
# connection sent after it sees the change (a kept-alive connection may end on an old worker).
set -u
if ! out=$(nginx -t 2>&1); then echo "$out" >&2; exit 1; fi
master=$(cat /run/nginx.pid)
workers() { awk -v m="$master" '$4 == m { print $1 }' /proc/[0-9]*/stat 2>/dev/null | sort; }
before=$(workers)
nginx -s reload || exit 1
started=
for _ in $(seq 1 200); do
  if workers | grep -qvxF "$before"; then started=1; break; fi
  sleep 0.025
done
if [ -z "$started" ]; then echo "berth-edge-reload: nginx started no new workers within 5 s" >&2; exit 1; fi
# old workers stop accepting once they see the master's quit; idle ones exit at once, busy ones
# finish their requests: wait a moment for the idle ones, not for long requests
for _ in $(seq 1 40); do
  alive=
  for pid in $before; do [ -d "/proc/$pid" ] && alive=1; done
  [ -z "$alive" ] && break
  sleep 0.025
done
echo '{"reloaded":true}'
