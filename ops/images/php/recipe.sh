# A site container: PHP-FPM on the unix socket /run/berth/php-fpm.sock whose pool runs as www-data (33:33, as in the official
# wordpress images), the extensions WordPress uses, and WordPress's core files at /usr/src/wordpress,
# copied into the site's files directory (/var/www/html, the container's mount) on first start.
# Sourced by php-<version>.sh, which sets php_version and image_debian_suite (each Debian suite ships
# one PHP: bookworm 8.2, trixie 8.4). Tag: localhost/berth/php:<version>-<hash>.
#
# Every PHP image carries the same WordPress: trixie's `wordpress` package (newer than bookworm's),
# unpacked without installing it (it depends on apache2 | httpd) and with the links Debian makes to
# its own copies of bundled libraries (getID3, lodash, underscore, cropper, the CA bundle) resolved
# into files, so the site's copy stands alone. Translations (wordpress-l10n, core .mo files only)
# sit at /usr/src/wordpress-languages; the helper's `install` copies the chosen locale's files.
# Paths and commands: ops/images/php/README.md.
image_name=localhost/berth/php
image_tag_prefix="$php_version-"
image_env="BERTH_PHP_${php_version//./_}_IMAGE"
image_inputs=(php)
image_packages=(tini ca-certificates "php$php_version-fpm" "php$php_version-cli" "php$php_version-mysql"
  "php$php_version-gd" "php$php_version-curl" "php$php_version-mbstring" "php$php_version-xml"
  "php$php_version-zip" "php$php_version-intl" "php$php_version-opcache")
image_changes=('ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/berth-php-entrypoint"]' 'CMD ["php-fpm"]'
  'WORKDIR /var/www/html' "LABEL berth.php-version=$php_version")
berth_wordpress_suite=trixie
berth_wordpress_packages=(wordpress wordpress-l10n wordpress-theme-twentytwentyfive php-getid3 libjs-cropper
  libjs-lodash libjs-underscore)

image_setup() {
  local root=$1 files=$berth_images_dir/php
  chroot_unpack_debs "$root" "$berth_wordpress_suite" /tmp/wordpress "${berth_wordpress_packages[@]}" || return 1
  chroot "$root" sh -euc '
    src=/tmp/wordpress/usr/share/wordpress
    # Debian'"'"'s own wp-config.php (per-host files under /etc/wordpress) and Apache .htaccess: the
    # helper writes each site'"'"'s wp-config.php
    rm -f "$src/wp-config.php" "$src/.htaccess"
    mv "$src/wp-content/languages" /usr/src/wordpress-languages
    cp -rL "$src" /usr/src/wordpress
    if find /usr/src/wordpress -type l | grep -q .; then echo "links left in /usr/src/wordpress" >&2; exit 1; fi
    mkdir -p /usr/src/wordpress/wp-content/uploads /var/www/html /run/php /run/berth
    chown -R 33:33 /usr/src/wordpress
    rm -rf /tmp/wordpress
    ln -s "/usr/sbin/php-fpm$1" /usr/local/sbin/php-fpm
    rm -f /etc/php/$1/fpm/pool.d/*.conf
  ' sh "$php_version" &&
    install -m 0755 "$files/entrypoint.sh" "$root/usr/local/bin/berth-php-entrypoint" &&
    install -m 0755 "$files/seed.sh" "$root/usr/local/bin/berth-wordpress-seed" &&
    sed "s/@PHP_VERSION@/$php_version/g" "$files/php-fpm.conf" > "$root/etc/php/$php_version/fpm/php-fpm.conf" &&
    install -m 0644 "$files/www.conf" "$root/etc/php/$php_version/fpm/pool.d/www.conf" &&
    install -m 0644 "$files/berth.ini" "$root/etc/php/$php_version/mods-available/berth.ini" &&
    ln -s ../../mods-available/berth.ini "$root/etc/php/$php_version/fpm/conf.d/99-berth.ini" &&
    ln -s ../../mods-available/berth.ini "$root/etc/php/$php_version/cli/conf.d/99-berth.ini"
}
