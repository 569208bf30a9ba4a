import { sendInvite } from '../../shared/domains/teams/invites.ts';
import type { Processor } from '../registry.ts';

export const sendInviteProcessor: Processor<'mail.invite'> = async (deps, payload) => ({
  sent: await sendInvite(deps, payload.inviteId),
});
