# The node's managed MariaDB (the default; an existing server can be named in the agent's config
# instead): Debian's mariadb-server, listening on 3306 on the container's networks. Root logs in
# only through the unix socket inside the container (`mariadb` run through exec), so the node needs
# no root password; each site environment gets its own database and user, created that way. The data
# directory (/var/lib/mysql, mounted by the agent) is initialised on first start.
image_name=localhost/berth/mariadb
image_env=BERTH_MARIADB_IMAGE
image_inputs=(mariadb)
image_packages=(tini mariadb-server)
image_changes=('ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/berth-mariadb-entrypoint"]'
  'CMD ["mariadbd"]' 'EXPOSE 3306')

image_setup() {
  local root=$1 files=$berth_images_dir/mariadb
  # the package's postinst initialised a data directory in the build root: each container makes its own
  rm -rf "${root:?}"/var/lib/mysql/* &&
    install -m 0644 "$files/berth.cnf" "$root/etc/mysql/mariadb.conf.d/99-berth.cnf" &&
    install -m 0755 "$files/entrypoint.sh" "$root/usr/local/bin/berth-mariadb-entrypoint" &&
    install -m 0755 "$files/ready.sh" "$root/usr/local/bin/berth-mariadb-ready"
}
