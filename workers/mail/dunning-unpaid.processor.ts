import { mailPlanWithdrawn } from '../../shared/domains/billing/dunning-mail.ts';
import type { Processor } from '../registry.ts';

export const sendDunningUnpaidProcessor: Processor<'mail.dunning-unpaid'> = async (deps, payload) => mailPlanWithdrawn(deps, payload.subscriptionId);
