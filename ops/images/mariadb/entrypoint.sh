#!/bin/sh
# The MariaDB container's entrypoint (under tini): an empty data directory is initialised (root by
# unix socket only, no test database), then mariadbd (or the given command) runs.
set -eu
mkdir -p /run/mysqld /var/lib/mysql
chown mysql:mysql /run/mysqld /var/lib/mysql
if [ ! -d /var/lib/mysql/mysql ]; then
  mariadb-install-db --user=mysql --datadir=/var/lib/mysql --auth-root-authentication-method=socket \
    --skip-test-db >/dev/null
fi
[ "$#" -gt 0 ] || set -- mariadbd
exec "$@"
