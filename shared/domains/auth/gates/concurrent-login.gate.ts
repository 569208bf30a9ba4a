import type { ExchangeGate } from './exchange-gate.ts';

/** Concurrent-login approval (issue 3): owned by the concurrent-login work. */
export const concurrentLoginGate: ExchangeGate = {
  name: 'concurrent-login',
  async check() {},
};
