import { Conflict } from '../../errors.ts';

/**
 * Why a domain claim conflicts; `details.reason` of the 409 on /v1. None names another team:
 * `domain_in_use` says only that the name is verified for some other site.
 */
export type DomainConflictReason = 'domain_in_use' | 'domain_claimed_by_team' | 'claim_lapsed' | 'claim_superseded';

/** A 409 CONFLICT that names its cause, so a client can tell them apart without parsing the message. */
export class DomainConflict extends Conflict {
  readonly reason: DomainConflictReason;
  constructor(reason: DomainConflictReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
