# Pebble, Let's Encrypt's ACME test server (Debian's pebble), for the certificate tests: installed
# here and started by each test with its own config (the HTTP-01 port is that test's edge), with a
# TLS certificate for 127.0.0.1 made once under $BERTH_TEST_STATE/pebble (its directory is HTTPS).
# Exports for the tests: BERTH_TEST_PEBBLE (the binary), BERTH_TEST_PEBBLE_CERT and _KEY.
# Needs ops/lib/services.sh (apt_install) and ops/lib/test-peers.sh.

ensure_test_pebble() {
  local dir
  dir=$(test_state_dir pebble) || return 1
  if [ ! -x /usr/bin/pebble ] || ! command -v openssl >/dev/null 2>&1; then
    with_peer_lock pebble apt_install pebble openssl || {
      echo "ops: the certificate tests need Pebble (ACME) and openssl; install them: apt-get install pebble openssl" >&2
      return 1; }
  fi
  if [ ! -s "$dir/cert.pem" ] || [ ! -s "$dir/key.pem" ]; then
    with_peer_lock pebble openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
      -subj /CN=berth-test-pebble -addext 'subjectAltName=IP:127.0.0.1,DNS:localhost' \
      -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null || { echo "ops: could not make Pebble's TLS certificate in $dir" >&2; return 1; }
  fi
  export BERTH_TEST_PEBBLE=/usr/bin/pebble BERTH_TEST_PEBBLE_CERT=$dir/cert.pem BERTH_TEST_PEBBLE_KEY=$dir/key.pem
}
