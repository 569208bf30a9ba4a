#!/bin/sh
# berth-wordpress-seed [DOCROOT]: copies the image's WordPress (/usr/src/wordpress) into DOCROOT
# unless DOCROOT holds a WordPress already (wp-includes/version.php, copied last, so an interrupted
# copy is completed by the next run and finished files are never overwritten). Prints
# {"seeded":true|false}. The entrypoint runs it before php-fpm starts; an exec of it waits for that
# run (a lock) and returns when the files are there.
set -eu
docroot=${1:-/var/www/html}
src=/usr/src/wordpress
mkdir -p "$docroot"
exec 9>/run/berth-wordpress-seed.lock
flock 9
if [ -f "$docroot/wp-includes/version.php" ]; then echo '{"seeded":false}'; exit 0; fi
chown 33:33 "$docroot"
# The tree is the tenant's: links planted in it must lead nowhere root could write, so the files
# are written as www-data (the owner they get anyway), never as root.
as_site() { setpriv --reuid=33 --regid=33 --clear-groups "$@"; }
tar -C "$src" --exclude=./wp-includes/version.php -cf - . | as_site tar -C "$docroot" --no-same-owner --skip-old-files -xf -
as_site cp --preserve=mode,timestamps "$src/wp-includes/version.php" "$docroot/wp-includes/version.php"
echo '{"seeded":true}'
