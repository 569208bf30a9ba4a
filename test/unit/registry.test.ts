import { describe, expect, it } from 'vitest';
import { checkRegistry, processors, type ProcessorEntry } from '../../workers/registry.ts';
import { jobCatalogue } from '../../shared/jobs/queues.ts';

describe('worker registry', () => {
  it('has exactly one processor for every job', () => {
    const registry = checkRegistry();
    expect([...registry.keys()].sort()).toEqual(Object.keys(jobCatalogue).sort());
  });

  it('refuses a job without a processor', () => {
    expect(() => checkRegistry(processors.slice(1))).toThrow(/job mail.email-verification has no processor/);
  });

  it('refuses a job with two processors', () => {
    expect(() => checkRegistry([...processors, processors[0]!])).toThrow(/has two processors/);
  });

  it('refuses a processor for a job nobody declared', () => {
    const stray = { name: 'mail.unknown', process: async () => undefined } as unknown as ProcessorEntry;
    expect(() => checkRegistry([...processors, stray])).toThrow(/processor for unknown job mail.unknown/);
  });
});
