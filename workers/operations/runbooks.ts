import { enrollRunbook } from '../nodes/enroll.runbook.ts';
import { siteCreateRunbook } from '../sites/site-create.runbook.ts';
import { siteDeleteRunbook } from '../sites/site-delete.runbook.ts';
import type { Runbook } from './runbook.ts';

/** Every kind of operation the workers carry out, with its runbook. Each issue's domain adds its own. */
export const runbooks: Runbook[] = [enrollRunbook, siteCreateRunbook, siteDeleteRunbook];

/** One runbook per kind, each with uniquely named steps; checked when the workers start. */
export function indexRunbooks(list: readonly Runbook[]): Map<string, Runbook> {
  const byKind = new Map<string, Runbook>();
  for (const runbook of list) {
    if (byKind.has(runbook.kind)) throw new Error(`operation kind ${runbook.kind} has two runbooks`);
    if (runbook.steps.length === 0) throw new Error(`runbook ${runbook.kind} has no steps`);
    const names = runbook.steps.map((step) => step.name);
    if (new Set(names).size !== names.length) throw new Error(`runbook ${runbook.kind} names a step twice`);
    byKind.set(runbook.kind, runbook);
  }
  return byKind;
}
