import { enqueue } from '../../../jobs/queues.ts';
import type { SignInObserver } from '../gates/exchange-gate.ts';
import { locateIp, networkOf } from './geo.ts';
import { LOGIN_ALERT_TTL_SECONDS } from './login-alert-mail.ts';
import { signInHistory } from './sign-in-history.ts';
import { suspicionReasons } from './suspicion.ts';

/**
 * Suspicious-login alerts: a sign-in from a country or network the user has not used in 90 days,
 * or one that implies impossible travel, writes a login alert with its reasons. Its e-mail is
 * queued after the exchange commits; the worker mints the approve/deny token when it sends it.
 */
export const suspiciousLoginObserver: SignInObserver = {
  name: 'suspicious-login',
  async inspect(trx, attempt, _session, deps) {
    const location = locateIp(attempt.ip);
    const network = networkOf(attempt.ip);
    const reasons = suspicionReasons(await signInHistory(trx, attempt.user.id), { location, network, at: new Date() });
    if (reasons.length === 0) return undefined;
    const [alert] = await trx('login_alerts')
      .insert({
        user_id: attempt.user.id,
        pre_auth_token_id: attempt.preAuth.id,
        reasons,
        ip: attempt.ip,
        country: location?.country ?? null,
        network,
        user_agent: attempt.userAgent,
        expires_at: new Date(Date.now() + LOGIN_ALERT_TTL_SECONDS * 1000),
      })
      .returning('id');
    deps.logger.info({ userId: attempt.user.id, alertId: alert.id, reasons }, 'suspicious sign-in: alert written, its e-mail follows the commit');
    return () => enqueue(deps.queues, 'mail.login-alert', { alertId: alert.id as number });
  },
};
