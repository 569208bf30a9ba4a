import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { OPERATIONS, type Backup } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useEnvironmentParams, type EnvironmentKind } from '../sites/EnvironmentFrame.tsx';
import type { StartedOperation } from '../../live/started-operation.ts';
import { formatBytes, formatDate } from './format.ts';
import { RestoreDialog } from './RestoreDialog.tsx';

const kindLabels: Record<Backup['kind'], string> = {
  manual: 'Manual',
  scheduled: 'Scheduled',
  pre_restore: 'Before a restore',
  pre_push: 'Before a push',
};

/** The archive's API address: a plain link, so the browser streams it to disk with the session cookie. */
function downloadHref(siteId: number, env: EnvironmentKind, backupId: string): string {
  return OPERATIONS['backups.download'].path.replace('{id}', String(siteId)).replace('{env}', env).replace('{backup}', encodeURIComponent(backupId));
}

export function BackupList({ site, onOperation }: { site: { id: number; name: string }; onOperation: (operation: StartedOperation) => void }) {
  const { siteId, env } = useEnvironmentParams();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [restoring, setRestoring] = useState<Backup | null>(null);
  const [deleting, setDeleting] = useState<Backup | null>(null);
  // the team's event stream re-reads this when any backup operation moves
  const backups = useQuery({ queryKey: ['backups', siteId, env, page], queryFn: () => berth.backups.list({ id: siteId, env, page, page_size: 20 }) });
  const remove = useMutation({
    mutationFn: (backup: Backup) => berth.backups.delete({ id: siteId, env, backup: backup.id }),
    onSuccess: async (accepted) => {
      setDeleting(null);
      // a backup without a snapshot goes at once (204, no operation)
      if (accepted) onOperation({ id: accepted.operation.id, title: 'Deleting a backup' });
      await queryClient.invalidateQueries({ queryKey: ['backups', siteId, env] });
    },
  });
  return (
    <Section title="Backups">
      {backups.isPending ? <Loading label="Loading backups" /> : null}
      <ErrorNotice error={backups.error} />
      {backups.data ? (
        <>
          <DataTable<Backup>
            caption={`Backups of ${env}`}
            rows={backups.data.data}
            rowKey={(backup) => backup.id}
            empty="No backups yet."
            columns={[
              {
                header: 'Taken',
                cell: (backup) => (
                  <>
                    {formatDate(backup.created_at)}
                    <br />
                    <small className="muted">{kindLabels[backup.kind]}</small>
                  </>
                ),
              },
              {
                header: 'Status',
                cell: (backup) => (
                  <>
                    <StatusBadge status={backup.status} />
                    {backup.error ? <small className="field-error"> {backup.error}</small> : null}
                  </>
                ),
              },
              { header: 'Note', cell: (backup) => backup.note ?? '' },
              {
                header: 'Size',
                cell: (backup) => (
                  <>
                    {formatBytes(backup.size_bytes)}
                    {backup.database_bytes !== null ? <small className="muted"> (database {formatBytes(backup.database_bytes)})</small> : null}
                  </>
                ),
              },
              {
                header: 'Actions',
                cell: (backup) => (
                  <div className="button-row">
                    {backup.status === 'succeeded' ? (
                      <>
                        <a className="button" href={downloadHref(siteId, env, backup.id)} download>
                          Download<span className="visually-hidden"> backup of {formatDate(backup.created_at)}</span>
                        </a>
                        <button type="button" className="button" onClick={() => setRestoring(backup)}>
                          Restore<span className="visually-hidden"> backup of {formatDate(backup.created_at)}</span>
                        </button>
                      </>
                    ) : null}
                    {backup.status !== 'pending' && backup.status !== 'running' ? (
                      <button type="button" className="button button-danger" onClick={() => setDeleting(backup)}>
                        Delete<span className="visually-hidden"> backup of {formatDate(backup.created_at)}</span>
                      </button>
                    ) : null}
                  </div>
                ),
              },
            ]}
          />
          <Pager page={page} totalPages={backups.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      <RestoreDialog
        backup={restoring}
        site={site}
        onClose={() => setRestoring(null)}
        onStarted={(id) => {
          setRestoring(null);
          onOperation({ id, title: 'Restore' });
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this backup?"
        confirmLabel="Delete backup"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>The backup of {formatDate(deleting?.created_at)} is removed from the repository for good; it cannot be restored or downloaded afterwards.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
