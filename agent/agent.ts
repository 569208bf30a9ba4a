import { HEARTBEAT_INTERVAL_SECONDS, MAX_POLL_WAIT_SECONDS } from '../shared/agent-protocol/constants.ts';
import type { Logger } from '../shared/logger.ts';
import { Backoff, refusedDelay, sleep } from './backoff.ts';
import type { AgentConfig } from './config.ts';
import { type Journal } from './journal.ts';
import { type ControlPlaneLink } from './link.ts';
import { LogShipper } from './logs/log-shipper.ts';
import { MetricsSampler } from './metrics.ts';
import type { ControlPlaneError, ProtocolClient } from './protocol-client.ts';
import { CommandRunner } from './runner.ts';
import type { Docker } from './runtime/docker.ts';
import { reconcileMetadataBlocks } from './runtime/metadata-block.ts';
import type { SftpService } from './sftp/sftp-service.ts';

const JOURNAL_PRUNE_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** How soon a cloud metadata block wiped on the host (`nft flush ruleset`) is made again. */
const METADATA_BLOCK_INTERVAL_MS = 60 * 1000;

export type AgentDeps = {
  config: AgentConfig;
  nodeId: string;
  client: ProtocolClient;
  docker: Docker;
  journal: Journal;
  link: ControlPlaneLink;
  logger: Logger;
  sftp?: SftpService;
};

/**
 * The enrolled agent's two loops: the long-poll that takes commands while a slot is free, and the
 * heartbeat with metrics and the running commands' ids. Neither ever throws: trouble reaching the
 * control plane is waited out with backoff; only a protocol refusal ends the agent (`stopped`).
 */
export class Agent {
  private readonly deps: AgentDeps;
  private readonly runner: CommandRunner;
  private readonly metrics: MetricsSampler;
  private readonly logs: LogShipper;
  private readonly polling = new AbortController();
  private readonly beating = new AbortController();
  private loops: Promise<unknown> = Promise.resolve();
  private pruneTimer: NodeJS.Timeout | null = null;
  private metadataTimer: NodeJS.Timeout | null = null;
  private fatalError: ControlPlaneError | null = null;
  private fatalResolve: ((error: ControlPlaneError) => void) | null = null;
  /** Resolves with the refusal when the control plane does not speak our protocol. */
  readonly fatal: Promise<ControlPlaneError>;

  /** This process's start, in every heartbeat: a new one makes the control plane reconcile the node. */
  private readonly startedAt = new Date().toISOString();

  constructor(deps: AgentDeps) {
    this.deps = deps;
    this.fatal = new Promise((resolve) => (this.fatalResolve = resolve));
    this.metrics = new MetricsSampler(deps.docker, deps.config.dataDir);
    this.logs = new LogShipper({
      dataDir: deps.config.dataDir,
      intervalMs: deps.config.logsIntervalMs,
      ship: (batch, signal) => deps.client.shipLogs(batch, signal),
      link: deps.link,
      logger: deps.logger,
    });
    this.runner = new CommandRunner({
      client: deps.client,
      journal: deps.journal,
      link: deps.link,
      logger: deps.logger,
      concurrency: deps.config.concurrency,
      context: (signal, reporter) => ({
        docker: deps.docker,
        dataDir: deps.config.dataDir,
        nodeId: deps.nodeId,
        allowPull: deps.config.allowPull,
        agentVersion: deps.config.agentVersion,
        signal,
        log: (stream, line) => reporter.log(stream, line),
        progress: (percent) => reporter.progress(percent),
        // only this one request of the client: a handler cannot post results or poll in the node's name
        download: (path, writable, downloadSignal) => deps.client.download(path, writable, downloadSignal),
        upload: (path, source, uploadSignal) => deps.client.upload(path, source, uploadSignal),
        streamPartMs: deps.config.streamPartMs,
        ...(deps.sftp ? { sftp: deps.sftp } : {}),
      }),
      onFatal: (error) => this.onFatal(error),
    });
  }

  start(): void {
    this.loops = Promise.all([this.pollLoop(), this.heartbeatLoop()]);
    this.logs.start();
    void this.prune();
    this.pruneTimer = setInterval(() => void this.prune(), JOURNAL_PRUNE_INTERVAL_MS);
    this.pruneTimer.unref();
    void this.blockMetadata();
    this.metadataTimer = setInterval(() => void this.blockMetadata(), METADATA_BLOCK_INTERVAL_MS);
    this.metadataTimer.unref();
  }

  /** SIGTERM: no new commands; running ones finish within the grace period or are failed. */
  async stop(): Promise<void> {
    this.polling.abort();
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    if (this.metadataTimer) clearInterval(this.metadataTimer);
    await this.runner.drain(this.deps.config.shutdownGraceMs);
    this.beating.abort();
    await this.logs.stop();
    await this.loops;
    await this.deps.sftp?.server.close();
  }

  private onFatal(error: ControlPlaneError): void {
    if (this.fatalError) return;
    this.fatalError = error;
    this.polling.abort();
    this.beating.abort();
    void this.logs.stop();
    this.fatalResolve?.(error);
  }

  private async pollLoop(): Promise<void> {
    const { client, link, logger } = this.deps;
    const signal = this.polling.signal;
    const backoff = new Backoff();
    while (!signal.aborted) {
      await this.runner.waitForSlot(signal);
      if (signal.aborted) break;
      try {
        const commands = await client.poll(MAX_POLL_WAIT_SECONDS, this.runner.free, signal);
        link.up();
        backoff.reset();
        for (const command of commands) await this.runner.accept(command);
      } catch (error) {
        if (signal.aborted) break;
        const kind = link.down(error);
        if (kind === 'protocol') return this.onFatal(error as ControlPlaneError);
        if (kind === 'rejected') logger.error({ error: (error as Error).message }, 'the control plane rejected the poll for commands');
        await sleep(kind === 'disabled' || kind === 'unauthorized' ? refusedDelay() : backoff.next(), signal);
      }
    }
  }

  /** The first heartbeat goes out at once (it turns an enrolled node `online`). */
  private async heartbeatLoop(): Promise<void> {
    const { client, config, journal, link, logger } = this.deps;
    const signal = this.beating.signal;
    let lastStatus: string | null = null;
    while (!signal.aborted) {
      let delay = HEARTBEAT_INTERVAL_SECONDS * 1000;
      const started = Date.now();
      try {
        const metrics = await this.metrics.sample();
        const sftp = this.deps.sftp?.server.facts();
        const reply = await client.heartbeat(
          { agent_version: config.agentVersion, metrics, running: journal.runningIds(), started_at: this.startedAt, ...(sftp ? { sftp } : {}) },
          signal,
        );
        link.up();
        if (reply.node_status !== lastStatus) logger.info({ node_status: reply.node_status }, 'node status');
        lastStatus = reply.node_status;
        delay -= Date.now() - started;
      } catch (error) {
        if (signal.aborted) break;
        const kind = link.down(error);
        if (kind === 'protocol') return this.onFatal(error as ControlPlaneError);
        if (kind === 'disabled' || kind === 'unauthorized') delay = refusedDelay();
        else if (kind === 'rejected') logger.error({ error: (error as Error).message }, 'the control plane rejected a heartbeat');
      }
      await sleep(Math.max(1000, delay), signal);
    }
  }

  /** The host's block of cloud metadata addresses for every network of the node (agent/runtime/metadata-block.ts). */
  private async blockMetadata(): Promise<void> {
    try {
      const { changed, removed } = await reconcileMetadataBlocks(this.deps.docker, this.deps.nodeId);
      if (changed.length > 0) this.deps.logger.warn({ tables: changed }, 'made the cloud metadata block (it was missing or altered on the host)');
      if (removed.length > 0) this.deps.logger.info({ tables: removed }, 'removed the cloud metadata blocks of networks that no longer exist');
    } catch (error) {
      this.deps.logger.error(
        { error: (error as Error).message },
        'cannot block cloud metadata on this node: site containers may reach the instance credentials',
      );
    }
  }

  private async prune(): Promise<void> {
    try {
      const removed = await this.deps.journal.prune();
      if (removed > 0) this.deps.logger.info({ removed }, 'pruned old journal entries');
    } catch (error) {
      this.deps.logger.warn({ error: (error as Error).message }, 'could not prune the journal');
    }
  }
}
