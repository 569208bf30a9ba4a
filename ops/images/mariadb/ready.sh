#!/bin/sh
# berth-mariadb-ready [SECONDS]: returns 0 once the server answers on its socket (default: wait 60 s).
limit=$(( ${1:-60} * 10 ))
i=0
while [ "$i" -lt "$limit" ]; do
  mariadb-admin --silent ping >/dev/null 2>&1 && exit 0
  sleep 0.1
  i=$((i + 1))
done
echo "berth-mariadb-ready: MariaDB did not answer within ${1:-60} s" >&2
exit 1
