# Test images, built offline from Debian's packages (no image registry is reachable on these
# machines): one recipe per image in ops/images/<name>.sh (test-base.sh shows the fields), one
# builder here. A debootstrap'd minbase root (cached as a tarball, shared by every recipe) gets the
# recipe's packages through apt-get in a chroot, then its steps, and is imported through the Docker
# Engine API at DOCKER_SOCKET (podman or Docker alike). The tag is a hash of the recipe, the
# builder's version, the suite, the mirror and the architecture: an unchanged recipe is built once
# per machine, a changed one gets a new tag (old tags stay until removed with `podman rmi`).
# Needs ops/lib/services.sh, ops/lib/test-peers.sh and ensure_podman (DOCKER_SOCKET) first.

# Bump when the builder changes what it produces, so every image is rebuilt.
berth_image_builder_version=1
berth_images_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../images" && pwd)

# The images the test suite uses: the agent's base image, and the WordPress runtime (a site
# container per PHP version a Debian suite ships, the edge proxy, the managed MariaDB, the backup
# tools; see ops/images/README.md). A recipe may set image_tag_prefix (php:8.2-<hash>),
# image_debian_suite (its own suite), image_inputs (files under ops/images it copies in, hashed with
# the recipe).
berth_test_images=(test-base php-8.2 php-8.4 edge mariadb backup)

ensure_test_images() { # ensure_test_images [RECIPE...] (default: berth_test_images)
  local name
  [ "$#" -gt 0 ] || set -- "${berth_test_images[@]}"
  for name in "$@"; do ensure_image "$name" || return 1; done
}

ensure_image() { # ensure_image RECIPE: builds ops/images/RECIPE.sh unless its tag exists; exports image_env
  local recipe=$berth_images_dir/$1.sh image_name='' image_env='' image_ref image_tag_prefix='' image_debian_suite=''
  local -a image_packages=() image_changes=() image_inputs=()
  [ -f "$recipe" ] || { echo "ops: no image recipe $recipe" >&2; return 1; }
  unset -f image_setup
  . "$recipe"
  if [ -z "$image_name" ] || [ -z "$image_env" ]; then
    echo "ops: $recipe must set image_name and image_env" >&2; return 1
  fi
  local input
  for input in "${image_inputs[@]}"; do
    [ -e "$berth_images_dir/$input" ] || { echo "ops: $recipe names a missing input $berth_images_dir/$input" >&2; return 1; }
  done
  image_ref=$image_name:$image_tag_prefix$(image_recipe_hash "$recipe")
  if ! docker_image_exists "$image_ref"; then
    with_peer_lock images build_image "$recipe" "$image_ref" || return 1
  fi
  unset -f image_setup
  export "$image_env=$image_ref"
}

image_recipe_hash() { # image_recipe_hash RECIPE -> 12 hex digits (with the recipe's fields set)
  local input file
  { printf 'builder %s suite %s mirror %s arch %s\n' "$berth_image_builder_version" \
      "$(image_suite)" "$(debian_mirror)" "$(dpkg --print-architecture)"
    cat "$1"
    # the files a recipe copies into its image (image_inputs) count as the recipe: none, no bytes
    for input in "${image_inputs[@]}"; do
      while IFS= read -r file; do
        printf 'input %s\n' "${file#"$berth_images_dir"/}"
        cat "$file"
      done < <(find "$berth_images_dir/$input" -type f | LC_ALL=C sort)
    done; } | sha256sum | cut -c1-12
}

# A recipe may name its own suite (image_debian_suite=trixie: the PHP version a suite ships);
# otherwise BERTH_IMAGE_SUITE, then bookworm.
image_suite() { printf '%s' "${image_debian_suite:-${BERTH_IMAGE_SUITE:-bookworm}}"; }

# The Debian mirror this machine's apt already uses (the only package source these machines reach):
# the first deb entry whose path ends in /debian (security and third-party sources are left out).
# BERTH_IMAGE_MIRROR overrides it.
debian_mirror() {
  if [ -n "${BERTH_IMAGE_MIRROR:-}" ]; then printf '%s' "$BERTH_IMAGE_MIRROR"; return 0; fi
  local found
  found=$({
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '
      $1 == "deb" { for (i = 2; i <= NF; i++) { if ($i ~ /^\[/) skip = 1; if (!skip) { print $i; break } if ($i ~ /\]$/) skip = 0 } skip = 0 }'
    for f in /etc/apt/sources.list.d/*.sources; do [ -f "$f" ] && awk 'BEGIN { RS = "" }
      /(^|\n)Types:[^\n]*deb([ \t]|\n|$)/ && !/(^|\n)Enabled:[ \t]*no/ {
        if (match($0, /(^|\n)URIs:[^\n]*/)) { n = split(substr($0, RSTART, RLENGTH), u, /[ \t\n]+/); for (i = 1; i <= n; i++) if (u[i] ~ /^[a-z]+:\/\//) print u[i] } }' "$f"
    done
  } | grep -E '/debian(/[0-9]{8}T[0-9]{6}Z)?/?$' | head -n 1)
  printf '%s' "${found:-http://deb.debian.org/debian}"
}

docker_image_exists() { # docker_image_exists REF
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 --unix-socket "$DOCKER_SOCKET" \
    "http://docker/images/$1/json")" = 200 ]
}

build_image() { # build_image RECIPE REF (under the images lock, with the recipe's fields set)
  local recipe=$1 ref=$2 state rootfs work start=$EPOCHREALTIME
  docker_image_exists "$ref" && return 0 # built by another run while this one waited
  state=$(test_state_dir images) || return 1
  rootfs=$(ensure_rootfs_tarball "$state") || return 1
  work=$(mktemp -d "$state/build.XXXXXX") || return 1
  echo "ops: building image $ref from $recipe (log: $state/build.log)" >&2
  # explicit && chains: set -e does not hold inside a function called from a || list
  if ! (
    # --one-file-system: should an unmount fail, the host's /dev or /proc is never what gets removed
    trap 'umount_chroot "$work/root"; rm -rf --one-file-system "$work"' EXIT
    mkdir "$work/root" &&
      tar -xpf "$rootfs" -C "$work/root" --numeric-owner &&
      { [ "${#image_packages[@]}" -eq 0 ] || chroot_apt_install "$work/root" "${image_packages[@]}"; } &&
      { ! declare -F image_setup >/dev/null || image_setup "$work/root"; } &&
      rm -rf "$work/root"/var/lib/apt/lists/* "$work/root"/var/cache/apt/*.bin "$work/root"/var/cache/apt/archives/*.deb &&
      tar -C "$work/root" --numeric-owner -cf "$work/image.tar" . &&
      docker_import "$ref" "$work/image.tar" "${image_changes[@]}"
  ) >>"$state/build.log" 2>&1; then
    echo "ops: building image $ref failed; last lines of $state/build.log:" >&2
    tail -n 20 "$state/build.log" >&2
    return 1
  fi
  docker_image_exists "$ref" || { echo "ops: the engine did not keep image $ref after the import" >&2; return 1; }
  check_image_runs "$ref" || return 1
  awk -v a="$start" -v b="$EPOCHREALTIME" -v r="$ref" 'BEGIN { printf "ops: built %s in %.1f s\n", r, b - a }' >&2
}

# The minbase root every image starts from, debootstrap'd once per suite, mirror and architecture.
ensure_rootfs_tarball() { # ensure_rootfs_tarball STATE -> prints the tarball's path
  local state=$1 suite mirror arch key tarball dir keyring=()
  suite=$(image_suite) mirror=$(debian_mirror) arch=$(dpkg --print-architecture)
  key=$(printf '%s %s %s %s minbase\n' "$berth_image_builder_version" "$suite" "$mirror" "$arch" | sha256sum | cut -c1-12)
  tarball=$state/rootfs-$suite-$arch-$key.tar
  [ -f "$tarball" ] && { printf '%s' "$tarball"; return 0; }
  if ! command -v debootstrap >/dev/null 2>&1; then
    apt_install debootstrap debian-archive-keyring || {
      echo "ops: the test images are built with debootstrap; install it: apt-get install debootstrap" >&2; return 1; }
  fi
  [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] && keyring=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)
  dir=$(mktemp -d "$state/debootstrap.XXXXXX") || return 1
  echo "ops: debootstrap --variant=minbase $suite from $mirror (log: $state/debootstrap.log)" >&2
  if ! debootstrap --variant=minbase --arch="$arch" "${keyring[@]}" "$suite" "$dir/root" "$mirror" >"$state/debootstrap.log" 2>&1; then
    echo "ops: debootstrap of $suite from $mirror failed (set BERTH_IMAGE_MIRROR to another Debian mirror); last lines of $state/debootstrap.log:" >&2
    tail -n 15 "$state/debootstrap.log" >&2
    umount_chroot "$dir/root"; rm -rf --one-file-system "$dir"
    return 1
  fi
  umount_chroot "$dir/root"
  tar -C "$dir/root" --numeric-owner -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
  local rc=$?
  rm -rf --one-file-system "$dir"
  [ "$rc" = 0 ] && printf '%s' "$tarball"
  return "$rc"
}

chroot_apt_install() { # chroot_apt_install ROOT PACKAGE...
  local root=$1 rc
  shift
  mount -t proc proc "$root/proc" && mount --bind /dev "$root/dev" || return 1
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  # like apt_install on the host: packages' service starts would fail in a chroot
  printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d" && chmod +x "$root/usr/sbin/policy-rc.d" || return 1
  chroot "$root" apt-get update -qq &&
    chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      -o Dpkg::Use-Pty=0 "$@"
  rc=$?
  rm -f "$root/usr/sbin/policy-rc.d"
  : > "$root/etc/resolv.conf" # the engine provides its own at run time
  umount_chroot "$root"
  return "$rc"
}

# Files from packages that are downloaded but not installed: a recipe takes them from another suite
# (one WordPress for every PHP image) or without the dependencies the package declares (wordpress
# depends on apache2 | httpd). A private apt state inside the root: the root's own stays untouched.
chroot_unpack_debs() { # chroot_unpack_debs ROOT SUITE DEST PACKAGE...: files land under ROOT/DEST
  local root=$1 suite=$2 dest=$3 apt=/tmp/berth-apt rc
  shift 3
  local -a opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::status=/dev/null
    -o APT::Sandbox::User=root)
  mkdir -p "$root$apt/lists/partial" "$root$apt/cache/archives/partial" "$root$apt/debs" "$root$dest" &&
    printf 'deb %s %s main\n' "$(debian_mirror)" "$suite" > "$root$apt/sources.list" || return 1
  mount -t proc proc "$root/proc" && mount --bind /dev "$root/dev" || return 1
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  chroot "$root" apt-get "${opts[@]}" update -qq &&
    chroot "$root" sh -c 'cd "$1" && shift && apt-get "$@"' sh "$apt/debs" "${opts[@]}" download "$@" &&
    chroot "$root" sh -c 'for deb in "$1"/*.deb; do dpkg-deb -x "$deb" "$2" || exit 1; done' sh "$apt/debs" "$dest"
  rc=$?
  : > "$root/etc/resolv.conf"
  umount_chroot "$root"
  rm -rf "${root:?}$apt"
  return "$rc"
}

umount_chroot() { # umount_chroot ROOT: whatever chroot_apt_install or debootstrap left mounted
  local m
  for m in dev/pts dev sys proc; do
    mountpoint -q "$1/$m" 2>/dev/null && umount -l "$1/$m"
  done
  return 0
}

# POST /images/create?fromSrc=-, untagged, then POST /images/{id}/tag: podman 4.3 ignores the
# import's tag parameter (and would add a :latest beside the name).
docker_import() { # docker_import REF TARBALL [CHANGE...]
  local ref=$1 tarball=$2 change query=() out id
  shift 2
  query=(--url-query fromSrc=-)
  for change in "$@"; do query+=(--url-query "changes=$change"); done
  out=$(curl -sS --fail-with-body -X POST "${query[@]}" -H 'Content-Type: application/x-tar' \
    -T "$tarball" --unix-socket "$DOCKER_SOCKET" http://docker/images/create) || { echo "$out"; return 1; }
  echo "$out"
  id=$(grep -o 'sha256:[0-9a-f]\{64\}' <<<"$out" | tail -n 1)
  [ -n "$id" ] || { echo "no image id in the engine's answer"; return 1; }
  curl -sS --fail-with-body -X POST --url-query "repo=${ref%:*}" --url-query "tag=${ref##*:}" \
    --unix-socket "$DOCKER_SOCKET" "http://docker/images/$id/tag"
}

# A container from the new image has to run: a machine whose engine answers the API but cannot
# start containers must fail here, by name, rather than in the middle of the agent's tests.
check_image_runs() { # check_image_runs REF
  local ref=$1 api=(curl -sS --max-time 60 --unix-socket "$DOCKER_SOCKET") id out status=''
  out=$("${api[@]}" -X POST -H 'Content-Type: application/json' \
    -d "{\"Image\":\"$ref\",\"Cmd\":[\"true\"],\"HostConfig\":{\"NetworkMode\":\"none\"}}" \
    http://docker/containers/create 2>&1)
  id=$(sed -n 's/.*"Id":"\([0-9a-f]*\)".*/\1/p' <<<"$out")
  if [ -n "$id" ]; then
    out=$("${api[@]}" --fail-with-body -X POST "http://docker/containers/$id/start" 2>&1) &&
      out=$("${api[@]}" -X POST "http://docker/containers/$id/wait" 2>&1) &&
      status=$(sed -n 's/.*"StatusCode":\([0-9]*\).*/\1/p' <<<"$out")
    "${api[@]}" -X DELETE "http://docker/containers/$id?force=1" >/dev/null 2>&1
  fi
  [ "$status" = 0 ] && return 0
  echo "ops: the container engine at DOCKER_SOCKET=$DOCKER_SOCKET cannot run a container from $ref:" >&2
  echo "     $out" >&2
  echo "     podman needs runc and the containers.conf that ops/lib/podman.sh writes; see $BERTH_TEST_STATE/podman/service.log" >&2
  return 1
}

# `npm start` with a local agent: the WordPress runtime's images, so a site created on this machine's
# node runs. Built like the tests' (first time about three minutes, as root), then SITE_PHP_IMAGES,
# SITE_EDGE_IMAGE, SITE_MARIADB_IMAGE and SITE_BACKUP_IMAGE name them unless already set (the
# environment or .env wins). Never fatal: without a Docker Engine API, or when the build cannot run (not root), Berth
# starts anyway and says what site creation will lack.
ensure_local_site_images() {
  local mode=${LOCAL_AGENT:-} socket found=''
  [ -n "$mode" ] || { [ "${NODE_ENV:-development}" = development ] && mode=auto || mode=off; }
  [ "$mode" != off ] || return 0
  for socket in $(printf '%s' "${NODE_DOCKER_SOCKETS:-/var/run/docker.sock,/run/podman/podman.sock}" | tr ',' ' '); do
    if docker_api_answers "$socket"; then found=$socket; break; fi
  done
  [ -n "$found" ] || return 0
  local -x DOCKER_SOCKET=$found
  # the local agent blocks cloud metadata for its networks with nft: without it no site can start
  command -v nft >/dev/null 2>&1 || with_peer_lock nft ensure_nft >&2 ||
    echo "ops: nft (Debian: nftables) is missing and could not be installed: sites on the local node will fail at their network step" >&2
  if ! ensure_test_images php-8.2 php-8.4 edge mariadb backup >&2; then
    echo "ops: the WordPress images could not be built (see above): sites on the local node will fail at their container step" >&2
    return 0
  fi
  export SITE_PHP_IMAGES=${SITE_PHP_IMAGES:-8.2=$BERTH_PHP_8_2_IMAGE,8.4=$BERTH_PHP_8_4_IMAGE}
  export SITE_EDGE_IMAGE=${SITE_EDGE_IMAGE:-$BERTH_EDGE_IMAGE}
  export SITE_MARIADB_IMAGE=${SITE_MARIADB_IMAGE:-$BERTH_MARIADB_IMAGE}
  export SITE_BACKUP_IMAGE=${SITE_BACKUP_IMAGE:-$BERTH_BACKUP_IMAGE}
}
