import { execFileSync } from 'node:child_process';
import { totpStep } from '../../shared/domains/auth/totp/totp-code.ts';

/** A TOTP code from OATH Toolkit, not from our own code, to prove we interoperate with authenticator apps. */
export function oathtool(args: string[]): string {
  try {
    return execFileSync('oathtool', args, { encoding: 'utf8' }).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('oathtool is not installed: these tests need the Debian package `oathtool` (apt-get install -y oathtool)', { cause: error });
    }
    throw error;
  }
}

/** oathtool's code for a given 30-second step, computed at the middle of that step. */
export function codeAt(secret: string, step: number): string {
  return oathtool(['--totp', '-b', secret, '-N', `@${step * 30 + 15}`]);
}

/** The code of the current step; robust to a step boundary in flight, since one step of skew is accepted. */
export function currentCode(secret: string): string {
  return codeAt(secret, totpStep(Date.now()));
}
