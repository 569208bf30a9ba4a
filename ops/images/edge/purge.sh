#!/bin/sh
# berth-edge-purge ENV_KEY [PATH...]: empties the page cache of one environment (its directory
# /var/cache/berth/ENV_KEY, which only its own keys zone writes). With paths, only the pages whose
# cache key (`KEY: <scheme><method><host><uri>`, see shared/wordpress/edge-cache.ts) is one of them,
# or starts with one ending in `*`, for every scheme, method and host; the caller validated them.
# nginx sees a removed file as a miss; files being written (<md5>.<n>, nginx's temporary names) are left alone. Prints {"removed":N}; a cache that does not exist removes 0.
set -eu
key=${1:?usage: berth-edge-purge ENV_KEY [PATH...]}
shift
case $key in env-[0-9]*) ;; *) echo "berth-edge-purge: not an environment key: $key" >&2; exit 2 ;; esac
case $key in *[!a-z0-9-]*) echo "berth-edge-purge: not an environment key: $key" >&2; exit 2 ;; esac
dir=/var/cache/berth/$key
if [ ! -d "$dir" ]; then echo '{"removed":0}'; exit 0; fi
list=$(mktemp)
trap 'rm -f "$list" "$list.paths"' EXIT
if [ "$#" -eq 0 ]; then
  find "$dir" -type f ! -name '*.*' -print >"$list"
else
  printf '%s\n' "$@" >"$list.paths"
  # each file's KEY line, less scheme, method and host (no / in those): the URI, compared with the paths
  find "$dir" -type f ! -name '*.*' -print0 | xargs -0 -r grep -a -m1 -H '^KEY: ' | awk '
    NR == FNR { if (substr($0, length($0)) == "*") prefixes[substr($0, 1, length($0) - 1)] = 1; else exact[$0] = 1; next }
    {
      split_at = index($0, ":KEY: ")
      file = substr($0, 1, split_at - 1)
      uri = substr($0, split_at + 6)
      sub(/^https?(GET|HEAD)[^\/]*/, "", uri)
      if (uri in exact) { print file; next }
      for (p in prefixes) if (substr(uri, 1, length(p)) == p) { print file; next }
    }' "$list.paths" - >"$list"
fi
removed=0
while IFS= read -r file; do
  rm -f -- "$file" && removed=$((removed + 1))
done <"$list"
echo "{\"removed\":$removed}"
