import { unseal } from '../../shared/crypto/sealed.ts';
import { EnvironmentBackupRepository } from '../../shared/db/models.ts';
import { unique } from './factories.ts';
import { wordpressImages } from './runtime-peers.ts';
import { docker, execChecked, type SiteNode } from './site-node.ts';
import type { Stack } from './stack.ts';

/** What a backup stored, as restic's `--json` output sums it up (the fields the tests read, and the rest). */
export type ResticSummary = { snapshot_id: string; total_bytes_processed: number; data_added: number; data_added_packed?: number; [field: string]: any };

/** The messages of restic's `--json` output (stdout or stderr): one JSON object a line. */
export function resticMessages(output: string): Array<Record<string, any>> {
  return output
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The `summary` message of restic's `--json` output (what a backup stored); throws when there is none. */
export function resticSummary(stdout: string): ResticSummary {
  const summary = resticMessages(stdout).find((message) => message.message_type === 'summary');
  if (!summary) throw new Error(`no summary in restic's output: ${stdout.slice(-500)}`);
  return summary as ResticSummary;
}

export type ResticReader = {
  /** restic with these arguments against an environment's repository (the reader's own unless named); its stdout. */
  run(args: string[], environmentId?: number): Promise<string>;
  remove(): Promise<void>;
};

/**
 * The test's own reader of environments' repositories on a node: restic in a container of the backup
 * image, with the repository's password unsealed from the control plane's record. `where` says how to
 * reach the repositories: the container's mounts and network, and per environment its environment
 * (RESTIC_REPOSITORY and any store credentials). The container is made at the first call (after the first backup has made the
 * repository) and labelled with the node, so the node's removal takes it too.
 */
export function resticReader(
  stack: Stack,
  node: SiteNode,
  ownEnvironmentId: () => number,
  where: { hostConfig: Record<string, unknown>; env(environmentId: number): Record<string, string> },
): ResticReader {
  const name = `berth-test-restic-${unique('r').slice(-8)}`;
  let started = false;
  const passwords = new Map<number, string>();
  return {
    async run(args, environmentId = ownEnvironmentId()) {
      if (!started) {
        const container = await docker.createContainer({
          name,
          Image: wordpressImages().backup,
          Labels: { 'berth.node': node.nodeId },
          HostConfig: where.hostConfig,
        });
        await container.start();
        started = true;
      }
      // kept once read: a deleted environment's record goes with it, and its repository may still be read
      if (!passwords.has(environmentId))
        passwords.set(
          environmentId,
          unseal(stack.ctx.config.secrets.secretKey, (await EnvironmentBackupRepository.query(stack.ctx.db).findById(environmentId))!.password_sealed),
        );
      return execChecked(name, ['restic', ...args], {
        ...where.env(environmentId),
        RESTIC_PASSWORD: passwords.get(environmentId)!,
        RESTIC_CACHE_DIR: '/tmp/inspector-cache',
      });
    },
    async remove() {
      await docker
        .getContainer(name)
        .remove({ force: true })
        .catch(() => undefined);
    },
  };
}
