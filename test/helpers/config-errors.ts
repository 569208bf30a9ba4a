import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../shared/config/config.ts';

/** The message loadConfig refuses `env` with (on top of a data directory); fails the test if it accepts it. */
export function configErrorOf(dataDir: () => string, env: Record<string, string>): string {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a configuration error');
}
