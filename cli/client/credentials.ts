import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `berth login` keeps: where the API is and the API token it made for this machine. */
export type StoredCredentials = { url: string; token: string; token_id: number; email: string; created_at: string };

/** `$BERTH_CONFIG_DIR`, else `$XDG_CONFIG_HOME/berth`, else `~/.config/berth`. */
export function configDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BERTH_CONFIG_DIR) return env.BERTH_CONFIG_DIR;
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'berth');
}

export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDirectory(env), 'credentials.json');
}

export function readCredentials(env: NodeJS.ProcessEnv = process.env): StoredCredentials | undefined {
  try {
    return JSON.parse(fs.readFileSync(credentialsFile(env), 'utf8')) as StoredCredentials;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Written 0600 in a 0700 directory, through a temporary file renamed into place, so the token is
 * never readable by others, not even for a moment, and a crash leaves the old file whole.
 */
export function writeCredentials(credentials: StoredCredentials, env: NodeJS.ProcessEnv = process.env): string {
  const directory = configDirectory(env);
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
  const file = credentialsFile(env);
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
  return file;
}

export function removeCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    fs.unlinkSync(credentialsFile(env));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
