import { useQuery } from '@tanstack/react-query';
import { berth } from '../../api/berth.ts';

export type Role = Awaited<ReturnType<typeof berth.roles.list>>['data'][number];

/** The roles the team can give (built-in first), for the role selects: one page of 100 holds them all in practice. */
export function useRoles(teamId: number, enabled = true) {
  return useQuery({ queryKey: ['roles', teamId], queryFn: () => berth.roles.list({ id: teamId, page: 1, page_size: 100 }), enabled });
}

export function roleOptions(roles: readonly Role[] | undefined): { value: string; label: string }[] {
  return (roles ?? []).map((role) => ({ value: String(role.id), label: role.name }));
}
