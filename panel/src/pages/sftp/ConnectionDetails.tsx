import type { SftpUser } from '@berth/sdk';

/** Where and how to connect, as the API gives it: host, port, username, the command and the host key to check. */
export function ConnectionDetails({ connection }: { connection: SftpUser['connection'] }) {
  return (
    <dl className="details">
      <dt>Host</dt>
      <dd>
        <code className="sftp-copy">{connection.host}</code>
      </dd>
      <dt>Port</dt>
      <dd>
        <code>{connection.port ?? 22}</code>
      </dd>
      <dt>Username</dt>
      <dd>
        <code className="sftp-copy">{connection.username}</code>
      </dd>
      {connection.command ? (
        <>
          <dt>Command</dt>
          <dd>
            <code className="sftp-copy">{connection.command}</code>
          </dd>
        </>
      ) : null}
      {connection.host_key_fingerprint ? (
        <>
          <dt>Host key</dt>
          <dd>
            <code className="sftp-copy">{connection.host_key_fingerprint}</code>
            <br />
            <small className="muted">Your SFTP client shows this the first time it connects: it must match.</small>
          </dd>
        </>
      ) : null}
    </dl>
  );
}
