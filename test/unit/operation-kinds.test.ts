import { describe, expect, it } from 'vitest';
import { OPERATION_KIND_NAMES, OPERATION_KINDS } from '../../shared/domains/operations/operation-kinds.ts';
import { runnableKinds } from '../../workers/operations/runbooks.ts';

describe('the catalogue of operation kinds', () => {
  it('gives every kind a runbook with a function for each of its declared steps, and nothing more', () => {
    const kinds = runnableKinds();
    expect([...kinds.keys()].sort()).toEqual([...OPERATION_KIND_NAMES].sort());
    for (const name of OPERATION_KIND_NAMES) {
      const declared = OPERATION_KINDS[name].steps.map((step) => step.name);
      const { runbook } = kinds.get(name)!;
      expect(Object.keys(runbook.steps).sort(), name).toEqual([...declared].sort());
      for (const step of declared) expect(typeof (runbook.steps as Record<string, unknown>)[step], `${name}.${step}`).toBe('function');
    }
  });

  it('refuses a test kind that reuses a catalogue kind', () => {
    expect(() => runnableKinds([{ spec: OPERATION_KINDS['site.create'], runbook: { steps: {} } }])).toThrow(/site\.create has two runbooks/);
  });
});
