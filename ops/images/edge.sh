# The node's edge proxy: nginx routing by Host to site containers (FastCGI to php-fpm on the unix
# socket each site container shares with it under /srv/sites) and serving static files from the sites' files, mounted read-only. The
# agent writes one file per site (shared/wordpress/edge-site.ts renders it) into the directory
# mounted at /etc/nginx/berth/sites and runs `berth-edge-reload` through exec. Paths and commands:
# ops/images/README.md.
image_name=localhost/berth/edge
image_env=BERTH_EDGE_IMAGE
image_inputs=(edge)
image_packages=(tini nginx)
image_changes=('ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/berth-edge-entrypoint"]'
  'CMD ["nginx", "-g", "daemon off;"]' 'EXPOSE 80' 'EXPOSE 443')

image_setup() {
  local root=$1 files=$berth_images_dir/edge
  # nginx's workers run as their own user (101, as in the official nginx image), not as www-data
  # (33), which owns the sites' files: they read what is world-readable, never wp-config.php (0640)
  chroot "$root" sh -euc '
    groupadd --system --gid 101 nginx
    useradd --system --uid 101 --gid 101 --home-dir /nonexistent --shell /usr/sbin/nologin nginx
    rm -rf /etc/nginx/sites-enabled /etc/nginx/sites-available /etc/nginx/conf.d /var/www/html
    mkdir -p /etc/nginx/berth/sites /srv/sites
    # page caches: owned by root, so the master makes each env-<id> below it (for nginx) and no worker adds another
    mkdir -p -m 0755 /var/cache/berth
  ' &&
    install -m 0644 "$files/nginx.conf" "$root/etc/nginx/nginx.conf" &&
    install -m 0755 "$files/entrypoint.sh" "$root/usr/local/bin/berth-edge-entrypoint" &&
    install -m 0755 "$files/reload.sh" "$root/usr/local/bin/berth-edge-reload" &&
    install -m 0755 "$files/purge.sh" "$root/usr/local/bin/berth-edge-purge"
}
