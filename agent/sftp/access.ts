/**
 * The kernel's permission check, made by hand: the agent works on a user's files as root (which
 * the kernel lets do anything), so each request is checked against the owner, group and mode bits
 * as if the site's uid and gid made it. The jail keeps a user inside the environment; this keeps
 * them off what the site itself may not touch there (a root-owned file, a read-only directory).
 */
export type Owner = { uid: number; gid: number };
export type Permissions = Owner & { mode: number };

export function permits(stats: Permissions, user: Owner, want: 'read' | 'write'): boolean {
  const bit = want === 'read' ? 4 : 2;
  if (stats.uid === user.uid) return ((stats.mode >> 6) & bit) !== 0;
  if (stats.gid === user.gid) return ((stats.mode >> 3) & bit) !== 0;
  return (stats.mode & bit) !== 0;
}
