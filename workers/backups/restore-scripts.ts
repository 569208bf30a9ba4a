import { BACKUP_RUNTIME, REPOSITORY_OPEN } from '../../shared/domains/backups/restic.ts';

/**
 * The scripts of a restore, run in its throwaway container (the backup image) with the repository
 * mounted read-only: restic reads with --no-lock, so a restore never waits for (or blocks) a prune.
 * Those that read the repository open it first (REPOSITORY_OPEN: an S3 store's CA, and a store that
 * does not answer fails within its deadline).
 */

/** The snapshot's files into /restore/data/files (a retry starts that directory over). */
export const RESTORE_FILES_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_OPEN}
rm -rf /restore/data
restic restore --no-lock "$SNAPSHOT_ID" --target /restore --include ${BACKUP_RUNTIME.filesMount}
test -d /restore${BACKUP_RUNTIME.filesMount}
echo "{\"files\":$(find /restore${BACKUP_RUNTIME.filesMount} | wc -l)}"
`;

/** The snapshot's dump loaded into the scratch database, as the target's own MariaDB user. */
export const RESTORE_DATABASE_SCRIPT = String.raw`
set -euo pipefail
${REPOSITORY_OPEN}
restic dump --no-lock "$SNAPSHOT_ID" ${BACKUP_RUNTIME.scratchDir}/database.sql \
  | MYSQL_PWD="$DB_PASSWORD" mariadb --skip-ssl -h "$DB_HOST" -u "$DB_USER" --default-character-set=utf8mb4 "$DB_NAME"_in
echo "{\"tables\":$(MYSQL_PWD="$DB_PASSWORD" mariadb --skip-ssl -h "$DB_HOST" -u "$DB_USER" -N -B -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$DB_NAME""_in'")}"
`;

/** What must be there before anything is swapped: WordPress's core files, and its options table. */
export const VERIFY_RESTORE_SCRIPT = String.raw`
set -euo pipefail
test -f /restore${BACKUP_RUNTIME.filesMount}/wp-includes/version.php || { echo "the restored files hold no WordPress (wp-includes/version.php is missing)" >&2; exit 1; }
options=$(MYSQL_PWD="$DB_PASSWORD" mariadb --skip-ssl -h "$DB_HOST" -u "$DB_USER" -N -B -e "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '$DB_NAME""_in' AND table_name = '$TABLE_PREFIX""options'")
[ "$options" = 1 ] || { echo "the restored database has no $TABLE_PREFIX""options table" >&2; exit 1; }
echo '{"verified":true}'
`;

/** The target's tables moved aside and the restored ones moved in (table-swap.ts: SWAP_SQL), as the target's own user. */
export const SWAP_DATABASE_SCRIPT = String.raw`
set -euo pipefail
MYSQL_PWD="$DB_PASSWORD" mariadb --skip-ssl -h "$DB_HOST" -u "$DB_USER" -N -B -e "$SWAP_SQL" | tail -n 1
`;
