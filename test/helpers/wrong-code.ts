import { totpStep } from '../../shared/domains/auth/totp/totp-code.ts';

/** A 6-digit TOTP code that is none of the codes accepted around now; `codeAt` gives a step's code. */
export function wrongCode(codeAt: (step: number) => string): string {
  const now = totpStep(Date.now());
  const near = [-1, 0, 1, 2].map((offset) => codeAt(now + offset));
  return ['000000', '111111', '222222'].find((code) => !near.includes(code))!;
}
