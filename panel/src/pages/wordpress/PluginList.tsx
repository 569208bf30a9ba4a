import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Plugin } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';

type Action = 'activate' | 'deactivate' | 'delete';

/** The plugins as last read; each change is an operation in the container, and the list is read again when it ends. */
export function PluginList({ onStarted }: { onStarted: (operationId: string, title: string) => void }) {
  const { siteId, env } = useEnvironmentParams();
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<Plugin | null>(null);
  const plugins = useQuery({ queryKey: ['plugins', siteId, env, page], queryFn: () => berth.plugins.list({ id: siteId, env, page, page_size: 50 }) });
  const change = useMutation({
    mutationFn: ({ plugin, action }: { plugin: Plugin; action: Action }) => berth.plugins[action]({ id: siteId, env, plugin: plugin.slug }),
    onSuccess: (accepted, { plugin, action }) => {
      setDeleting(null);
      onStarted(accepted.operation.id, `${action === 'delete' ? 'Deleting' : action === 'activate' ? 'Activating' : 'Deactivating'} ${plugin.name}`);
    },
  });
  return (
    <Section title="Plugins">
      {plugins.isPending ? <Loading label="Loading plugins" /> : null}
      <ErrorNotice error={plugins.error} />
      {deleting ? null : <ErrorNotice error={change.error} />}
      {plugins.data ? (
        <>
          <DataTable<Plugin>
            caption={`Plugins of ${env}`}
            rows={plugins.data.data}
            rowKey={(plugin) => plugin.plugin}
            empty="No plugins (or not read yet)."
            columns={[
              { header: 'Plugin', cell: (plugin) => plugin.name },
              { header: 'Version', cell: (plugin) => plugin.version },
              { header: 'Status', cell: (plugin) => <StatusBadge status={plugin.active ? 'active' : 'inactive'} /> },
              {
                header: 'Actions',
                cell: (plugin) => (
                  <div className="button-row">
                    <button
                      type="button"
                      className="button"
                      disabled={change.isPending}
                      onClick={() => change.mutate({ plugin, action: plugin.active ? 'deactivate' : 'activate' })}
                    >
                      {plugin.active ? 'Deactivate' : 'Activate'}
                      <span className="visually-hidden"> {plugin.name}</span>
                    </button>
                    <button type="button" className="button button-danger" onClick={() => setDeleting(plugin)}>
                      Delete<span className="visually-hidden"> {plugin.name}</span>
                    </button>
                  </div>
                ),
              },
            ]}
          />
          <Pager page={page} totalPages={plugins.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the plugin ${deleting?.name ?? ''}?`}
        confirmLabel="Delete plugin"
        pending={change.isPending}
        onConfirm={() => deleting && change.mutate({ plugin: deleting, action: 'delete' })}
        onCancel={() => {
          change.reset();
          setDeleting(null);
        }}
      >
        <p>Its files are removed from the environment{deleting?.active ? '; it is deactivated first' : ''}. Its settings in the database may stay.</p>
        <ErrorNotice error={change.error} />
      </ConfirmDialog>
    </Section>
  );
}
