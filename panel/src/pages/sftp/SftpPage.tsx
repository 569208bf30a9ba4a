import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SftpUser } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { EnvironmentFrame, useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';
import { ConnectionDetails } from './ConnectionDetails.tsx';
import { CredentialsForm, type Created } from './CredentialsForm.tsx';

/** An environment's SFTP users: who can reach its WordPress files, how to connect, new credentials, revoking. */
export default function SftpPage() {
  return <EnvironmentFrame title="SFTP">{() => <SftpUsers />}</EnvironmentFrame>;
}

function SftpUsers() {
  const { siteId, env } = useEnvironmentParams();
  const queryClient = useQueryClient();
  // the last create or change: its operation, and a generated password shown this once
  const [latest, setLatest] = useState<Created | null>(null);
  const [editing, setEditing] = useState<SftpUser | null>(null);
  const [revoking, setRevoking] = useState<SftpUser | null>(null);
  const [showing, setShowing] = useState<SftpUser | null>(null);
  const key = ['sftp-users', siteId, env];
  const users = useQuery({ queryKey: key, queryFn: () => berth.sftpUsers.list({ id: siteId, env }) });
  const revoke = useMutation({
    mutationFn: (user: SftpUser) => berth.sftpUsers.delete({ id: siteId, env, user: user.id }),
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const done = (answer: Created) => {
    setEditing(null);
    setLatest(answer);
  };
  const rows = users.data ?? [];
  return (
    <>
      {latest ? (
        <Section title={`SFTP user ${latest.sftp_user.username}`}>
          {latest.password ? (
            <Notice tone="success">
              Password for <strong>{latest.sftp_user.username}</strong>: <code className="sftp-copy">{latest.password}</code>
              <br />
              Copy it now: Berth does not show it again.
            </Notice>
          ) : null}
          <ConnectionDetails connection={latest.sftp_user.connection} />
          <OperationProgress key={latest.operation.id} id={latest.operation.id} title={`Setting up ${latest.sftp_user.username} on the server`} />
        </Section>
      ) : null}
      <Section title="SFTP users">
        <p className="muted">A user sees only this environment's WordPress files; no shell.</p>
        {users.isPending ? <Loading label="Loading SFTP users" /> : null}
        <ErrorNotice error={users.error} />
        {users.data ? (
          <DataTable<SftpUser>
            caption={`SFTP users of ${env}`}
            rows={rows}
            rowKey={(user) => user.id}
            empty="No SFTP users yet."
            columns={[
              { header: 'Username', cell: (user) => <code>{user.username}</code> },
              { header: 'Status', cell: (user) => <StatusBadge status={user.status} /> },
              {
                header: 'Signs in with',
                cell: (user) =>
                  [
                    user.password ? 'password' : null,
                    ...user.public_keys.map((publicKey) => `${publicKey.type} key ${publicKey.comment ?? publicKey.fingerprint}`),
                  ]
                    .filter(Boolean)
                    .join(', '),
              },
              {
                header: 'Connect to',
                cell: (user) => (
                  <code>
                    {user.connection.host}:{user.connection.port ?? 22}
                  </code>
                ),
              },
              {
                header: 'Actions',
                cell: (user) =>
                  user.status === 'revoked' ? null : (
                    <div className="button-row">
                      <button
                        type="button"
                        className="button"
                        onClick={() => setShowing(showing?.id === user.id ? null : user)}
                        aria-expanded={showing?.id === user.id}
                      >
                        How to connect<span className="visually-hidden"> as {user.username}</span>
                      </button>
                      <button type="button" className="button" onClick={() => setEditing(user)}>
                        Change credentials<span className="visually-hidden"> of {user.username}</span>
                      </button>
                      <button type="button" className="button button-danger" onClick={() => setRevoking(user)}>
                        Revoke<span className="visually-hidden"> {user.username}</span>
                      </button>
                    </div>
                  ),
              },
            ]}
          />
        ) : null}
        {showing ? (
          <>
            <h3>Connecting as {showing.username}</h3>
            <ConnectionDetails connection={showing.connection} />
          </>
        ) : null}
      </Section>
      <Section title={editing ? `New credentials for ${editing.username}` : 'Add an SFTP user'}>
        {editing ? <CredentialsForm key={editing.id} user={editing} onDone={done} onCancel={() => setEditing(null)} /> : <CredentialsForm onDone={done} />}
      </Section>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.username ?? 'this user'}?`}
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => {
          revoke.reset();
          setRevoking(null);
        }}
      >
        <p>The user cannot sign in any more, and open sessions are closed at once.</p>
        <ErrorNotice error={revoke.error} />
      </ConfirmDialog>
    </>
  );
}
