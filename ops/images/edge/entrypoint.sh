#!/bin/sh
# The edge's entrypoint (under tini): nginx resolves site containers through the container's own
# nameserver (podman's network DNS, the first one: nginx would ask every listed server in turn and
# the host's know no container names), then nginx (or the given command) runs.
set -eu
server=$(awk '$1 == "nameserver" { n = $2; if (n ~ /:/) n = "[" n "]"; print n; exit }' /etc/resolv.conf)
if [ -n "$server" ]; then
  echo "resolver $server valid=2s ipv6=off;" > /etc/nginx/berth/resolver.conf
else
  : > /etc/nginx/berth/resolver.conf
fi
[ "$#" -gt 0 ] || set -- nginx -g 'daemon off;'
exec "$@"
