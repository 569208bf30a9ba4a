import type { Logger } from '../shared/logger.ts';
import { ControlPlaneError, failureKindOf, type FailureKind } from './protocol-client.ts';

type LinkState = 'unknown' | 'up' | FailureKind;

const messages: Record<FailureKind, string> = {
  unreachable: 'control plane unreachable: retrying with backoff',
  protocol: "the control plane does not speak this agent's protocol version",
  disabled: 'this node is disabled by an operator: the control plane refuses the agent; retrying every few minutes until it is enabled again',
  unauthorized: "the control plane refuses this agent's credentials (node deleted, key replaced, or the clock far off?): retrying every few minutes",
  rejected: 'the control plane rejected a request',
};

/**
 * The agent's view of its connection to the control plane, shared by the loops (poll, heartbeat,
 * results). It logs when the state changes, not on every attempt, so an outage of hours is two lines.
 */
export class ControlPlaneLink {
  private state: LinkState = 'unknown';
  private failures = 0;
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  get current(): LinkState {
    return this.state;
  }

  up(): void {
    if (this.state === 'up') return;
    if (this.state === 'unknown') this.logger.info('connected to the control plane');
    else this.logger.info({ failed_attempts: this.failures, was: this.state }, 'control plane reachable again');
    this.state = 'up';
    this.failures = 0;
  }

  down(error: unknown): FailureKind {
    const kind = failureKindOf(error);
    this.failures += 1;
    // a rejected request is about that request, not about the link
    if (kind === 'rejected' || kind === this.state) return kind;
    this.state = kind;
    const detail = { error: (error as Error).message, ...(error instanceof ControlPlaneError && error.status ? { status: error.status } : {}) };
    if (kind === 'unreachable') this.logger.warn(detail, messages[kind]);
    else this.logger.error(detail, messages[kind]);
    return kind;
  }
}
