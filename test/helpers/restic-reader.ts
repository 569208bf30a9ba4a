import { unseal } from '../../shared/crypto/sealed.ts';
import { BackupRepository } from '../../shared/db/models.ts';
import { unique } from './factories.ts';
import { wordpressImages } from './runtime-peers.ts';
import { docker, execChecked, type SiteNode } from './site-node.ts';
import type { Stack } from './stack.ts';

export type ResticReader = {
  /** restic with these arguments against the node's repository; its stdout. */
  run(args: string[]): Promise<string>;
  remove(): Promise<void>;
};

/**
 * The test's own reader of a node's repository: restic in a container of the backup image, with the
 * repository's password unsealed from the control plane's record. `where` says how to reach the
 * repository: its environment (RESTIC_REPOSITORY and any store credentials) and the container's
 * mounts and network. The container is made at the first call (after the first backup has made the
 * repository) and labelled with the node, so the node's removal takes it too.
 */
export function resticReader(stack: Stack, node: SiteNode, where: () => { env: Record<string, string>; hostConfig: Record<string, unknown> }): ResticReader {
  const name = `berth-test-restic-${unique('r').slice(-8)}`;
  let started = false;
  return {
    async run(args) {
      const { env, hostConfig } = where();
      if (!started) {
        const container = await docker.createContainer({ name, Image: wordpressImages().backup, Labels: { 'berth.node': node.nodeId }, HostConfig: hostConfig });
        await container.start();
        started = true;
      }
      const repository = (await BackupRepository.query(stack.ctx.db).findById(node.nodeId))!;
      return execChecked(name, ['restic', ...args], {
        ...env,
        RESTIC_PASSWORD: unseal(stack.ctx.config.secrets.secretKey, repository.password_sealed),
        RESTIC_CACHE_DIR: '/tmp/inspector-cache',
      });
    },
    async remove() {
      await docker.getContainer(name).remove({ force: true }).catch(() => undefined);
    },
  };
}
