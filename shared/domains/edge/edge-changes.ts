import { sha512Crypt } from '../../crypto/sha512-crypt.ts';
import { Certificate, Environment, type Operation } from '../../db/models.ts';
import { Conflict, ValidationFailed } from '../../errors.ts';
import type { OperationDeps } from '../operations/operations.ts';
import { environmentIds, lockEnvironmentForChange, startOn, type Actor } from '../sites/environments.ts';
import { httpsState } from './edge-settings.ts';

/**
 * Changes of an environment's edge settings: recorded on its row in the request's transaction, then
 * applied by an `environment.edge` operation (the node's route, WordPress's URLs), one at a time
 * with every other operation on the environment.
 */

type Change = { environment: Environment; operation: Operation };

/** HTTPS forcing and HSTS. Forcing needs an installed certificate covering the address (409 otherwise: nothing could be forced). */
export async function changeHttps(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  wanted: { force?: boolean | undefined; hsts_max_age_seconds?: number | undefined },
): Promise<Change> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, kind);
    if (wanted.force === true) {
      const certificate = await Certificate.query(trx).where({ environment_id: environment.id, status: 'installed' }).orderBy('updated_at', 'desc').first();
      if (!httpsState(environment, certificate).certificate_covers) {
        throw new Conflict(
          `No installed certificate covers ${environment.primary_domain ?? environment.domain}: issue or upload one first (HTTPS is forced by default once one is installed)`,
        );
      }
    }
    const changed = await Environment.query(trx).patchAndFetchById(environment.id, {
      ...(wanted.force !== undefined ? { force_https: wanted.force } : {}),
      ...(wanted.hsts_max_age_seconds !== undefined ? { hsts_max_age_seconds: wanted.hsts_max_age_seconds } : {}),
      updated_at: new Date(),
    });
    const operation = await startOn(trx, deps, actor, environment, 'environment.edge', { ...environmentIds(environment), change: 'https' });
    return { environment: changed, operation };
  });
}

const USERNAME = /^[A-Za-z0-9._-]{1,64}$/;

/** HTTP basic auth at the edge: on with a user name and password (only its hash is kept), or off. */
export async function changePasswordProtection(
  deps: OperationDeps,
  actor: Actor,
  siteId: number,
  kind: string,
  wanted: { enabled: boolean; username?: string | undefined; password?: string | undefined },
): Promise<Change> {
  return deps.db.transaction(async (trx) => {
    const { environment } = await lockEnvironmentForChange(trx, actor.teamId, siteId, kind);
    let credentials: Pick<Environment, 'password_protection_username' | 'password_protection_hash'> = {
      password_protection_username: null,
      password_protection_hash: null,
    };
    if (wanted.enabled) {
      const username = wanted.username ?? environment.password_protection_username;
      if (!username || !USERNAME.test(username)) throw ValidationFailed.field('username', 'a user name of 1 to 64 letters, digits, . _ or -');
      const hash = wanted.password !== undefined ? sha512Crypt(wanted.password) : environment.password_protection_hash;
      if (!hash) throw ValidationFailed.field('password', 'a password is needed to turn protection on');
      credentials = { password_protection_username: username, password_protection_hash: hash };
    }
    const changed = await Environment.query(trx).patchAndFetchById(environment.id, { ...credentials, updated_at: new Date() });
    const operation = await startOn(trx, deps, actor, environment, 'environment.edge', { ...environmentIds(environment), change: 'password_protection' });
    return { environment: changed, operation };
  });
}
