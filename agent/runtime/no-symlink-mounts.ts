import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { CommandFailure } from '../commands/failure.ts';

const run = promisify(execFile);

/**
 * Makes each of `targets` (bind mounts of a running container) a mount whose symbolic links the
 * kernel never follows (`nosymfollow`, Linux 5.10), read-only and without devices, setuid or exec,
 * and checks that it took. A process walking such a tree by path (restic reading a tenant's files)
 * cannot be led out of it by a link the tenant swaps in mid-walk: every link is stored as a link and
 * never resolved, so /proc/self, the container's own files and the host stay out of reach.
 *
 * Why here and like this: the engine's bind options do not carry `nosymfollow` (podman refuses the
 * option; runc drops the flag of a host-side mount when it remounts the bind), so the agent (root on
 * its node) remounts the bind inside the container's mount namespace once the container runs. The
 * `mount` that runs there is the container's image's (the backup image: ours, and fresh). The engine
 * makes mounts anew when it restarts a container: what runs in it checks the flag again
 * (restic.ts: FILES_VIEW_GUARD) instead of trusting this one call.
 */
export async function forbidSymlinksIn(pid: number, container: string, targets: Array<{ target: string; readOnly: boolean }>): Promise<void> {
  for (const { target, readOnly } of targets) {
    const options = `remount,bind,${readOnly ? 'ro' : 'rw'},nosymfollow,nosuid,nodev,noexec`;
    try {
      await run('nsenter', ['--target', String(pid), '--mount', '--', 'mount', '-o', options, target], { timeout: 10_000 });
    } catch (error) {
      throw new CommandFailure(
        `could not forbid symbolic links on ${target} in ${container}: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`,
      );
    }
    const options_ = await mountOptions(pid, target);
    if (!options_?.includes('nosymfollow'))
      throw new CommandFailure(`${target} in ${container} still follows symbolic links (mount options: ${options_?.join(',') ?? 'no such mount'})`, {
        permanent: true,
      });
  }
}

/** The per-mount options of the mount at `target` in the mount namespace of `pid` (the last one mounted there), or null. */
export async function mountOptions(pid: number, target: string): Promise<string[] | null> {
  const lines = (await fs.readFile(`/proc/${pid}/mountinfo`, 'utf8')).split('\n');
  // fields: id parent major:minor root mount-point options ...
  const found = lines
    .map((line) => line.split(' '))
    .filter((fields) => fields[4] === target)
    .at(-1);
  return found ? found[5]!.split(',') : null;
}
