import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';

type Theme = components['schemas']['Theme'];

/** The themes as last read: one is active; activating another or deleting an inactive one is an operation. */
export function ThemeList({ onStarted }: { onStarted: (operationId: string, title: string) => void }) {
  const { siteId, env } = useEnvironmentParams();
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<Theme | null>(null);
  const themes = useQuery({ queryKey: ['themes', siteId, env, page], queryFn: () => berth.themes.list({ id: siteId, env, page, page_size: 50 }) });
  const activate = useMutation({
    mutationFn: (theme: Theme) => berth.themes.activate({ id: siteId, env, theme: theme.theme }),
    onSuccess: (accepted, theme) => onStarted(accepted.operation.id, `Activating ${theme.name}`),
  });
  const remove = useMutation({
    mutationFn: (theme: Theme) => berth.themes.delete({ id: siteId, env, theme: theme.theme }),
    onSuccess: (accepted, theme) => {
      setDeleting(null);
      onStarted(accepted.operation.id, `Deleting ${theme.name}`);
    },
  });
  return (
    <Section title="Themes">
      {themes.isPending ? <Loading label="Loading themes" /> : null}
      <ErrorNotice error={themes.error ?? activate.error} />
      {themes.data ? (
        <>
          <DataTable<Theme>
            caption={`Themes of ${env}`}
            rows={themes.data.data}
            rowKey={(theme) => theme.theme}
            empty="No themes (or not read yet)."
            columns={[
              {
                header: 'Theme',
                cell: (theme) => (
                  <>
                    {theme.name}
                    {theme.parent ? <small className="muted"> (child of {theme.parent})</small> : null}
                  </>
                ),
              },
              { header: 'Version', cell: (theme) => theme.version },
              { header: 'Status', cell: (theme) => <StatusBadge status={theme.active ? 'active' : 'inactive'} /> },
              {
                header: 'Actions',
                // the active theme can be neither activated nor deleted
                cell: (theme) =>
                  theme.active ? null : (
                    <div className="button-row">
                      <button type="button" className="button" disabled={activate.isPending} onClick={() => activate.mutate(theme)}>
                        Activate<span className="visually-hidden"> {theme.name}</span>
                      </button>
                      <button type="button" className="button button-danger" onClick={() => setDeleting(theme)}>
                        Delete<span className="visually-hidden"> {theme.name}</span>
                      </button>
                    </div>
                  ),
              },
            ]}
          />
          <Pager page={page} totalPages={themes.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the theme ${deleting?.name ?? ''}?`}
        confirmLabel="Delete theme"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>Its files are removed from the environment.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
