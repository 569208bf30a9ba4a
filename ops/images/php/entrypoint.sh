#!/bin/sh
# The site container's entrypoint (under tini): the site's files get WordPress on first start, then
# php-fpm (or the given command) runs.
set -eu
# /run/berth (a mount the edge shares) holds the FastCGI socket; a previous container's is stale
mkdir -p /run/php /run/berth
rm -f /run/berth/php-fpm.sock
berth-wordpress-seed /var/www/html >/dev/null
[ "$#" -gt 0 ] || set -- php-fpm
exec "$@"
