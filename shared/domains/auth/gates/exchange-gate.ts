import type { Knex } from 'knex';
import type { Db } from '../../../db/knex.ts';
import type { Session } from '../../../db/models.ts';
import type { Team, User } from '../../../db/models.ts';
import type { Logger } from '../../../logger.ts';
import type { Queues } from '../../../jobs/queues.ts';

/** The device and network a sign-in comes from (declared here, beside the gates that read it, so gates and exchange import one way only). */
export type SessionInfo = {
  device_fingerprint: string;
  ip?: string | undefined;
  user_agent?: string | undefined;
  geo?: { city?: string | undefined; country?: string | undefined } | undefined;
};

/** The pre-auth token row, locked for the exchange. */
export type PreAuthRow = { id: number; user_id: number; remember_me: boolean; expires_at: Date; consumed_at: Date | null };

/** Everything a check between "member of the team" and "session issued" may look at. */
export type ExchangeAttempt = {
  preAuth: PreAuthRow;
  user: User;
  team: Team;
  sessionInfo: SessionInfo;
  /** As the server saw them. */
  ip: string | null;
  userAgent: string | null;
};

export type GateDeps = { db: Db; queues: Queues; logger: Logger; publicUrl: string; secretKey: Buffer };

/**
 * A check of /session-exchange that may stop it by throwing: the exchange's transaction rolls back
 * and the pre-auth token stays usable. A gate that must remember something across retries (a pending
 * request) writes it through `deps.db`, outside the rolled-back transaction.
 */
export type ExchangeGate = {
  name: string;
  check(trx: Knex.Transaction, attempt: ExchangeAttempt, deps: GateDeps): Promise<void>;
};

/**
 * Looks at a sign-in that will complete (inside its transaction, before its login activity is
 * recorded) and may return work to run after the commit, such as an alert e-mail.
 */
export type SignInObserver = {
  name: string;
  inspect(trx: Knex.Transaction, attempt: ExchangeAttempt, session: Session, deps: GateDeps): Promise<(() => Promise<void>) | undefined>;
};
