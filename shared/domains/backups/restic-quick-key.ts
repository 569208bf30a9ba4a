/**
 * Every restic run opens the repository by deriving its key from the password with scrypt, at the
 * cost `restic init` calibrated: half a second of CPU on an idle machine, 0.7 s and more on a busy
 * one, paid by each restic process (a backup ran seven of them). The password Berth gives a
 * repository is 32 random bytes (repository-keys.ts), which no guessing reaches whatever the KDF
 * costs, so the stretching buys nothing: QUICK_KEY_SCRIPT replaces the repository's key by one of
 * scrypt N=2^10 (a millisecond) wrapping the same master key, in restic's own key format
 * (restic's design document, "Keys, Encryption and MAC": AES-256-CTR and Poly1305-AES over the
 * master key's JSON, scrypt giving the 32-byte encryption key then the MAC's k and r).
 *
 * A node-local repository only (restic has no command to add a key of chosen cost, and only there
 * can the script write the key file itself). The master key never leaves the container's private
 * tmpfs; the password reaches openssl in its argument (hex), in this container only, where nothing
 * else runs meanwhile. The new key is checked by restic itself, opening a copy of the repository's
 * config with that key alone, before it is put in and the old one removed, so the repository always
 * has a key that opens it. A repository whose only key is quick already is left as it is (a retry).
 */
export const QUICK_KEY_N = 1024;

export const QUICK_KEY_SCRIPT = String.raw`
quick_key() {
  local keys="$RESTIC_REPOSITORY/keys" work salt derived encryption mac_k mac_r iv s mac id
  if [ "$(find "$keys" -type f | wc -l)" = 1 ] && grep -q '"N":${QUICK_KEY_N},' "$keys"/*; then return 0; fi
  bytes() { sed 's/../\\x&/g' | xargs -0 printf '%b'; }
  hex() { od -An -v -tx1 | tr -d ' \n'; }
  work=$(mktemp -d /dev/shm/berth-key.XXXXXX 2>/dev/null || mktemp -d /tmp/berth-key.XXXXXX)
  restic cat masterkey --no-lock > "$work/master.json"
  salt=$(openssl rand -hex 64)
  derived=$(openssl kdf -keylen 64 -kdfopt "hexpass:$(hex < "$RESTIC_PASSWORD_FILE")" -kdfopt "hexsalt:$salt" \
    -kdfopt n:${QUICK_KEY_N} -kdfopt r:8 -kdfopt p:1 SCRYPT | tr -d ':\n' | tr 'A-F' 'a-f')
  encryption=${'$'}{derived:0:64}; mac_k=${'$'}{derived:64:32}; mac_r=${'$'}{derived:96:32}
  iv=$(openssl rand -hex 16)
  openssl enc -aes-256-ctr -K "$encryption" -iv "$iv" -in "$work/master.json" -out "$work/cipher"
  rm -f "$work/master.json"
  s=$(printf '%s' "$iv" | bytes | openssl enc -aes-128-ecb -nopad -K "$mac_k" | hex)
  mac=$(openssl mac -macopt "hexkey:$mac_r$s" -in "$work/cipher" POLY1305 | tr 'A-F' 'a-f')
  { printf '%s' "$iv" | bytes; cat "$work/cipher"; printf '%s' "$mac" | bytes; } > "$work/data"
  printf '{"created":"%s","username":"berth","hostname":"berth","kdf":"scrypt","N":%d,"r":8,"p":1,"salt":"%s","data":"%s"}' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" ${QUICK_KEY_N} "$(printf '%s' "$salt" | bytes | base64 -w0)" "$(base64 -w0 < "$work/data")" > "$work/key"
  id=$(sha256sum "$work/key" | cut -d' ' -f1)
  mkdir -p "$work/check/keys"
  cp "$RESTIC_REPOSITORY/config" "$work/check/config"
  cp "$work/key" "$work/check/keys/$id"
  if ! RESTIC_REPOSITORY="$work/check" restic cat config --no-lock > /dev/null; then
    rm -rf "$work"
    echo "the quick key did not open the repository: its calibrated key stays" >&2
    return 0
  fi
  cp "$work/key" "$keys/$id.new" && chmod 0400 "$keys/$id.new" && mv "$keys/$id.new" "$keys/$id"
  find "$keys" -type f ! -name "$id" -delete
  rm -rf "$work"
}
`;
