#!/bin/sh
# The site container's entrypoint (under tini): the site's files get WordPress on first start, then
# php-fpm (or the given command) runs.
set -eu
mkdir -p /run/php
berth-wordpress-seed /var/www/html >/dev/null
[ "$#" -gt 0 ] || set -- php-fpm
exec "$@"
