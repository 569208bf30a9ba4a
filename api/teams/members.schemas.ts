import { z } from 'zod';
import type { MemberView } from '../../shared/domains/teams/members.ts';
import { roleRef } from './roles.schemas.ts';
import { rowId } from '../middleware/validate.ts';

export const changeMemberRoleBody = z.strictObject({
  role_id: rowId().describe("A built-in role or one of the team's own (`GET /v1/teams/{id}/roles`)"),
});

export const memberReply = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: roleRef,
  status: z.enum(['ACTIVE', 'SUSPENDED']),
  joined_at: z.iso.datetime().describe('ISO 8601, UTC'),
});

export function memberJson(member: MemberView): z.infer<typeof memberReply> {
  return {
    user_id: member.user_id,
    name: member.name,
    email: member.email,
    role: { id: member.role_id, name: member.role_name },
    status: member.status,
    joined_at: member.joined_at.toISOString(),
  };
}
