import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createDb, type Db } from '../../shared/db/knex.ts';
import { onlineNode, startBerth, stopBerthProcesses, type RunningBerth } from './berth-process.ts';
import { createOwner, unique, type TestUser } from './factories.ts';
import { freePort } from './free-port.ts';
import { Mailbox } from './mailbox.ts';
import { dockerSocket } from './runtime-peers.ts';
import { docker, siteStackEnv } from './site-node.ts';
import { testDatabaseUrl } from './services.ts';
import { TEST_RATE_LIMITS } from './stack.ts';

/**
 * Berth as a customer meets it: `berth start` in its own process (API, workers and the local agent
 * that makes this machine a node), an SMTP sink for its mail, and teams whose plan an operator set.
 */
export type LiveStack = {
  baseUrl: string;
  berth: RunningBerth;
  mailbox: Mailbox;
  db: Db;
  /** The node's region, for site creation. */
  region: string;
  /** A verified owner of a new team with room for sites. */
  newOwner(): Promise<TestUser>;
  /** The newest device-approval code mailed to `email` after `after` mails to it. */
  deviceCode(email: string, after: number): Promise<string>;
  /** `GET <url>?email=...&after=N` answers that code as text: how a process in another language reads it. */
  deviceCodeUrl: string;
  stop(): Promise<void>;
};

/** The /v1 burst limit of the live stack: low enough that a burst of calls meets 429s the SDKs must honour. */
export const LIVE_BURST_LIMIT = 10;

/**
 * `publicUrl: true` serves Berth on a port chosen first and sets PUBLIC_URL to it, so a browser on
 * that address passes the CSRF origin check and the e-mailed links open the panel it is using.
 */
async function ownAddress(): Promise<{ PORT: string; PUBLIC_URL: string }> {
  const port = await freePort();
  return { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
}

export async function startLiveStack(name: string, options: { publicUrl?: boolean } = {}): Promise<LiveStack> {
  const mailbox = new Mailbox();
  await mailbox.start();
  const db = createDb(testDatabaseUrl, { poolMax: 2 });
  const nodeName = unique(`${name}-node`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `berth-${name}-`));
  const berth = await startBerth(
    {
      ...siteStackEnv(),
      ...TEST_RATE_LIMITS,
      RATE_LIMIT_API_BURST: `${LIVE_BURST_LIMIT}/1s`,
      LOCAL_AGENT: 'on',
      LOCAL_AGENT_NODE_NAME: nodeName,
      NODE_DOCKER_SOCKETS: dockerSocket(),
      SMTP_URL: mailbox.url,
      ...(options.publicUrl ? await ownAddress() : {}),
    },
    dataDir,
    'start',
  );
  const node = await onlineNode(db, nodeName, 60_000);
  // Its own edge port: port 80 may be taken on a test machine; the edge starts with the first site.
  await db('nodes')
    .where({ id: node.id })
    .update({ edge_http_port: await freePort() });

  const deviceCode = async (email: string, after: number) => {
    const mail = await mailbox.waitForNth(email, /./, after + 1, 90_000);
    const code = /Code: (\d{6})/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no device code in "${mail.subject}" to ${email}`);
    return code;
  };
  const codes = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://codes.invalid');
    deviceCode(url.searchParams.get('email') ?? '', Number(url.searchParams.get('after') ?? 0)).then(
      (code) => res.end(code),
      (error: Error) => res.writeHead(404).end(error.message),
    );
  });
  await new Promise<void>((resolve) => codes.listen(0, '127.0.0.1', resolve));

  return {
    baseUrl: berth.baseUrl,
    berth,
    mailbox,
    db,
    region: node.region as string,
    async newOwner() {
      const owner = await createOwner(db);
      await db('team_entitlements').insert({ team_id: owner.teamId, plan: 'agency', max_sites: 5, max_disk_bytes: 50 * 1024 ** 3 });
      return owner;
    },
    deviceCode,
    deviceCodeUrl: `http://127.0.0.1:${(codes.address() as AddressInfo).port}/`,
    async stop() {
      codes.close();
      berth.child.kill('SIGTERM');
      const stopped = await Promise.race([berth.exited, new Promise((resolve) => setTimeout(resolve, 30_000, 'timeout'))]);
      if (stopped === 'timeout') stopBerthProcesses();
      await db('nodes').where({ name: nodeName }).update({ status: 'disabled' });
      // What the node ran (its edge, MariaDB, any site a failed run left) goes with it.
      const label = `berth.node=${node.id as string}`;
      const containers = await docker.listContainers({ all: true, filters: { label: [label] } });
      await Promise.all(containers.map((container) => docker.getContainer(container.Id).remove({ force: true, v: true })));
      const networks = await docker.listNetworks({ filters: { label: [label] } });
      await Promise.all(networks.map((network) => docker.getNetwork(network.Id).remove()));
      await db.destroy();
      await mailbox.stop();
    },
  };
}
