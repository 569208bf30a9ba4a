import type { SignInObserver } from '../gates/exchange-gate.ts';

/** Suspicious-login alerts (issue 3): owned by the suspicious-login work. */
export const suspiciousLoginObserver: SignInObserver = {
  name: 'suspicious-login',
  async inspect() {
    return undefined;
  },
};
