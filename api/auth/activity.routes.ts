import type { Context } from '../../shared/context.ts';
import { listLoginActivity } from '../../shared/domains/auth/devices/login-activity-list.ts';
import { listTrustedDevices, revokeTrustedDevice } from '../../shared/domains/auth/devices/trusted-devices.ts';
import { parseOrFail } from '../middleware/validate.ts';
import { DocumentedRouter } from '../openapi/documented-router.ts';
import { authErrors } from './auth-responses.ts';
import { errorReply, messageReply } from './auth.schemas.ts';
import { loginActivityQuery, loginActivityReply, revokeDeviceBody, trustedDevicesReply } from './devices.schemas.ts';
import { requireCsrf, requireSession, sessionOf } from './session-guard.ts';

/** The user's own sign-in history and devices: spec part 4.9. */
export function activityRoutes(ctx: Context): DocumentedRouter {
  const router = new DocumentedRouter();

  router.route(
    {
      method: 'get',
      path: '/login-activity',
      operationId: 'browserAuth.listLoginActivity',
      summary: "The caller's sign-ins and refreshes",
      description:
        "The signed-in user's own `login` (every successful `/session-exchange`) and `refresh` entries, newest first. Query " +
        '`page` (from 1, default 1) and `page_size` (1 to 100, default 20); other values answer 422. Beside `activity` the reply ' +
        "carries a `pagination` block `{page, page_size, total, total_pages}` as in the general API's lists (not in the spec's " +
        'shape of this endpoint). `ip` is the address the server saw. `geo.country` is the one the server located the IP in when ' +
        "it could, else the client's statement at login; `geo.city` is only ever the client's, and is null when it contradicts " +
        'the located country. Refreshes carry no client statement.',
      tags: ['auth: devices'],
      security: ['sessionCookie'],
      query: loginActivityQuery,
      responses: { 200: { description: 'One page of activity', schema: loginActivityReply }, ...authErrors.unauthenticated, 422: authErrors.invalid[422] },
    },
    requireSession(ctx),
    async (req, res) => {
      const query = parseOrFail(loginActivityQuery, req.query);
      res.json(await listLoginActivity(ctx.db, sessionOf(res).userId, { page: query.page, pageSize: query.page_size }));
    },
  );

  router.route(
    {
      method: 'get',
      path: '/trusted-devices',
      operationId: 'browserAuth.listTrustedDevices',
      summary: "The caller's trusted devices",
      description:
        'Every device the signed-in user approved with an e-mailed code, newest first, revoked ones included (`revoked_at` set). ' +
        'IPs are those the server saw: at approval (`first_ip`) and at the latest sign-in from the device (`last_ip`, `last_seen_at`).',
      tags: ['auth: devices'],
      security: ['sessionCookie'],
      responses: { 200: { description: 'The devices', schema: trustedDevicesReply }, ...authErrors.unauthenticated },
    },
    requireSession(ctx),
    async (_req, res) => {
      res.json({ devices: await listTrustedDevices(ctx.db, sessionOf(res).userId) });
    },
  );

  router.route(
    {
      method: 'post',
      path: '/trusted-devices/revoke',
      operationId: 'browserAuth.revokeTrustedDevice',
      summary: "Revoke one of the caller's trusted devices",
      description:
        'Sets `revoked_at` and ends every session of the user on that device (its fingerprint), this one included when it is ' +
        "that device; the next sign-in from it needs an e-mailed code again. Another user's device id answers 404 like an unknown " +
        'one. Revoking a device that is already revoked changes nothing.',
      tags: ['auth: devices'],
      security: ['sessionCookie'],
      csrf: true,
      body: revokeDeviceBody,
      responses: {
        200: { description: 'Revoked', schema: messageReply },
        ...authErrors.unauthenticated,
        403: { description: '`csrf_mismatch`', schema: errorReply },
        404: { description: "`not_found`: no such device among the caller's", schema: errorReply },
        ...authErrors.invalid,
      },
    },
    requireSession(ctx),
    requireCsrf(ctx),
    async (req, res) => {
      const { device_id: deviceId } = parseOrFail(revokeDeviceBody, req.body);
      await revokeTrustedDevice(ctx, sessionOf(res).userId, deviceId);
      res.json({ message: 'Device revoked. Its sessions have been signed out.' });
    },
  );

  return router;
}
