import { mailDunningAttempt } from '../../shared/domains/billing/dunning-mail.ts';
import type { Processor } from '../registry.ts';

export const sendDunningAttemptProcessor: Processor<'mail.dunning-attempt'> = async (deps, payload) =>
  mailDunningAttempt(deps, payload.attemptId, deps.config.billing);
