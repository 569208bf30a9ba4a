# The node's backup tools, kept generic: restic (Debian trixie's 0.18.x: --stdin-from-command,
# `dump --archive tar`, JSON output everywhere), the MariaDB client (mariadb-dump, mariadb), zstd and
# tar. The agent creates a container from it that idles (`sleep infinity` under tini), mounts what it
# backs up or restores, and runs each command through exec with the repository's address and
# credentials in the exec's environment (RESTIC_REPOSITORY, RESTIC_PASSWORD, AWS_*): nothing secret is
# baked into the image or the container. Addresses and commands: ops/images/README.md.
image_name=localhost/berth/backup
image_env=BERTH_BACKUP_IMAGE
image_debian_suite=trixie
image_packages=(tini restic mariadb-client zstd tar ca-certificates)
# restic's cache (index and tree blobs, rebuilt from the repository when missing) in one fixed place
# the agent may mount so that it outlives the container
image_changes=('ENTRYPOINT ["/usr/bin/tini", "--"]' 'CMD ["sleep", "infinity"]' 'ENV RESTIC_CACHE_DIR=/var/cache/restic')

image_setup() {
  mkdir -p "$1/var/cache/restic" && chmod 0700 "$1/var/cache/restic"
}
