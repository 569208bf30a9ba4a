# The smallest Debian that the agent's tests start containers from: a shell, coreutils, and tini as
# PID 1 so that a stop's SIGTERM ends the container at once (a bare `sleep` as PID 1 ignores it and
# every stop would wait out the engine's 10 s grace period).
# A recipe sets these; ops/lib/images.sh builds it and tags it with a hash of this file.
image_name=localhost/berth/test-base    # repository; the tag is the recipe hash
image_env=BERTH_TEST_BASE_IMAGE         # the variable that hands the tests the full reference
image_packages=(tini)                   # from Debian, without recommends
image_changes=('ENTRYPOINT ["/usr/bin/tini", "--"]' 'CMD ["sleep", "infinity"]')
# image_setup ROOT (optional function): more steps, run on the host; use `chroot "$1" ...`
