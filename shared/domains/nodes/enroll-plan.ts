import type { StepPlan } from '../operations/operations.ts';

export const NODE_ENROLL_KIND = 'node.enroll';

/**
 * The steps of `node.enroll`, named here so the API can plan the operation without importing the
 * workers; workers/nodes/enroll.runbook.ts carries them out under the same names (the runner
 * refuses an operation whose steps differ from its runbook's).
 */
export const NODE_ENROLL_STEPS: readonly StepPlan[] = [
  { name: 'connect' },
  { name: 'check_host' },
  { name: 'upload_agent' },
  { name: 'install_agent' },
  { name: 'await_registration' },
  { name: 'prepare_runtime' },
];

/** Enrollment is short; a stuck SSH session or a silent agent must not hold the node for 30 minutes. */
export const NODE_ENROLL_DEADLINE_SECONDS = 15 * 60;
