import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Files run side by side. Most of a file's time is spent waiting on its peers (containers starting,
 * an agent's poll, MariaDB, restic), not on the CPU, so even a two-core machine runs three at once
 * well; BERTH_TEST_WORKERS changes the count (1 runs them one by one).
 */
const workers = Number(process.env.BERTH_TEST_WORKERS ?? 3);

/**
 * Files that need the host's firewall to themselves. Every node network gets an nftables table that
 * refuses cloud-metadata addresses from any container; the cloud-metadata test reads its own table's
 * counter, which stays still when another node's table, at the same hook and priority, refuses the
 * packet first. So these files run in a first group, beside files that start no node, and the
 * files that do start one (an agent process, a site node, the agent's commands on podman) wait for
 * the second group.
 */
const HOST_FIREWALL_ALONE = ['test/integration/isolation/cloud-metadata.test.ts'];
const STARTS_A_NODE = /\b(startAgentNode|startSiteNode|startSiteOnNode|startAcmeSite|startTwoSites|spawnAgent|commandHarness|startLiveStack)\(/;

const allFiles = fs.globSync('test/**/*.test.ts').map((file) => file.split(path.sep).join('/'));
const nodeFiles = allFiles.filter((file) => !HOST_FIREWALL_ALONE.includes(file) && STARTS_A_NODE.test(fs.readFileSync(file, 'utf8')));

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    pool: 'forks',
    maxWorkers: workers,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Integration tests commit real rows: each worker has a database of its own (test/global-setup.ts),
    // each file builds its own users, teams and Redis prefix, and a file's tests run in order.
    projects: [
      {
        extends: true,
        test: { name: 'first', include: ['test/**/*.test.ts'], exclude: nodeFiles, sequence: { groupOrder: 0, concurrent: false } },
      },
      { extends: true, test: { name: 'nodes', include: nodeFiles, sequence: { groupOrder: 1, concurrent: false } } },
    ],
  },
});
