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
tar -C "$src" --exclude=./wp-includes/version.php -cf - . | tar -C "$docroot" --skip-old-files -xf -
cp -p "$src/wp-includes/version.php" "$docroot/wp-includes/version.php"
echo '{"seeded":true}'
