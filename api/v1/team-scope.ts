import type { Request } from 'express';
import type { NotHeld } from '../../shared/domains/teams/not-held.ts';
import { NotFound } from '../../shared/errors.ts';
import { errorEnvelope } from './envelope.ts';
import { MAX_ROW_ID } from '../middleware/validate.ts';
import { principalCovers, type Principal } from './principal.ts';

const PATH_ID = /^[1-9]\d{0,9}$/;

/** A path id that names nothing (not a positive 32-bit integer) answers like an unknown id: 404. */
export function pathIdOf(req: Request, name: string, what: string): number {
  const raw = req.params[name];
  const id = typeof raw === 'string' && PATH_ID.test(raw) ? Number(raw) : NaN;
  if (!(id <= MAX_ROW_ID)) throw new NotFound(`${what} not found`);
  return id;
}

/**
 * The team of a `/teams/{id}/...` route: only the one the caller acts in (the team of their session
 * or API token). Any other id answers 404, a team the user also belongs to included: to act in
 * another team, sign in to it (`team_id` at login or session exchange).
 */
export function scopedTeamId(req: Request, principal: Principal): number {
  const id = pathIdOf(req, 'id', 'Team');
  if (id !== principal.team_id) throw new NotFound('Team not found');
  return id;
}

/** The caller's "nobody grants what they do not hold" check, for the domain: the first grant they lack. */
export function notHeldBy(principal: Principal): NotHeld {
  return (grants) => grants.find((grant) => !principalCovers(principal, [grant]));
}

/** The error answers of the team routes, each with its envelope. */
export const teamErrors = {
  401: { description: 'AUTHENTICATION_ERROR', schema: errorEnvelope },
  403: {
    description: 'AUTHORIZATION_ERROR: `details.permission` names the missing permission or the grant the caller would hand on without holding it',
    schema: errorEnvelope,
  },
  404: { description: "NOT_FOUND: not in the caller's team (any team but the one the caller acts in answers 404)", schema: errorEnvelope },
  409: { description: 'CONFLICT', schema: errorEnvelope },
  422: { description: 'VALIDATION_ERROR: `details.fields` names each failing field', schema: errorEnvelope },
} as const;
