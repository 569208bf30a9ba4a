import { Client, type SFTPWrapper } from 'ssh2';

/**
 * ssh2's own client, for what OpenSSH's sftp will not do: go on sending after a disconnect,
 * pipeline many requests at once. Every call settles (an error or a dropped connection is
 * `failed`), so a test can assert that abuse fails without hanging.
 */
export type RawSftp = { client: Client; sftp: SFTPWrapper; closed: () => boolean };

export async function rawSftp(options: { host: string; port: number; username: string; password: string }): Promise<RawSftp> {
  const client = new Client();
  let closed = false;
  client.on('close', () => (closed = true));
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve()).once('error', reject);
    client.connect({ ...options, readyTimeout: 15_000 });
  });
  client.on('error', () => undefined); // a cut connection is what these tests provoke
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => client.sftp((error, channel) => (error ? reject(error) : resolve(channel))));
  return { client, sftp, closed: () => closed };
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** Runs one callback-style SFTP call; an exception, an error, or no answer within `ms` is a failure. */
export function settle<T>(call: (done: (error: Error | null | undefined, value?: T) => void) => void, ms = 5_000): Promise<Outcome<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, error: 'no answer' }), ms);
    const done = (error: Error | null | undefined, value?: T) => {
      clearTimeout(timer);
      resolve(error ? { ok: false, error: error.message } : { ok: true, value: value as T });
    };
    try {
      call(done);
    } catch (error) {
      done(error as Error);
    }
  });
}
