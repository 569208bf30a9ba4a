import { mailCreditNote } from '../../shared/domains/billing/credit-note-mail.ts';
import type { Processor } from '../registry.ts';

export const sendCreditNoteProcessor: Processor<'mail.credit-note'> = async (deps, payload) =>
  mailCreditNote(deps, payload.creditNoteId, deps.config.billing.sellerName);
