import { z } from 'zod';
import type { Team } from '../../shared/db/models.ts';
import { settingsWithDefaults, type TeamOfUser } from '../../shared/domains/teams/team-profile.ts';
import { roleRef } from './roles.schemas.ts';

const timestamp = z.iso.datetime().describe('ISO 8601, UTC');

const newDeviceApproval = z.boolean().describe('Sign-ins from a device the user never used need a code e-mailed to them (default true)');
const concurrentSessions = z
  .enum(['allow', 'approve'])
  .describe("`approve` (default): a sign-in while the user has a live session on another device waits for that session's approval; `allow`: it does not");

export const teamSettingsReply = z.object({ new_device_approval: newDeviceApproval, concurrent_sessions: concurrentSessions });

export const teamReply = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  settings: teamSettingsReply.describe('The security settings, every key with its value in force'),
  created_at: timestamp,
  updated_at: timestamp,
});

export const updateTeamBody = z.strictObject({
  name: z.string().trim().min(1).max(100).optional().describe('1 to 100 characters'),
  slug: z
    .string()
    .max(64)
    .optional()
    .describe('3 to 40 lower-case letters, digits or single hyphens, starting and ending with a letter or digit; unique; a few are reserved'),
  settings: z
    .strictObject({ new_device_approval: newDeviceApproval.optional(), concurrent_sessions: concurrentSessions.optional() })
    .optional()
    .describe('Merged key by key into the current settings: keys left out keep their value'),
});

export const myTeamReply = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  role: roleRef,
  status: z.enum(['ACTIVE', 'SUSPENDED']).describe("The membership's status"),
  current: z.boolean().describe('Whether this is the team the caller acts in now'),
  joined_at: timestamp,
});

export function teamJson(team: Team): z.infer<typeof teamReply> {
  return {
    id: team.id,
    name: team.name,
    slug: team.slug,
    settings: settingsWithDefaults(team.settings),
    created_at: new Date(team.created_at).toISOString(),
    updated_at: new Date(team.updated_at).toISOString(),
  };
}

export function myTeamJson(team: TeamOfUser, currentTeamId: number): z.infer<typeof myTeamReply> {
  return {
    id: team.id,
    name: team.name,
    slug: team.slug,
    role: { id: team.role_id, name: team.role_name },
    status: team.status,
    current: team.id === currentTeamId,
    joined_at: team.joined_at.toISOString(),
  };
}
