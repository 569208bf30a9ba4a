import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Backup } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField } from '../../components/Field.tsx';
import { fieldErrors } from '../../api/errors.ts';
import { useEnvironmentParams, type EnvironmentKind } from '../sites/EnvironmentFrame.tsx';
import { formatDate } from './format.ts';

/**
 * Restoring overwrites an environment's files and database, so the site's name must be typed. The
 * target may be another environment of the site (the API rewrites the address to the target's).
 */
export function RestoreDialog({
  backup,
  site,
  onClose,
  onStarted,
}: {
  backup: Backup | null;
  site: { id: number; name: string };
  onClose: () => void;
  onStarted: (operationId: string) => void;
}) {
  const { siteId, env } = useEnvironmentParams();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<EnvironmentKind>(env);
  // the frame loaded the site already under this key: its environments are the possible targets
  const siteQuery = useQuery({ queryKey: ['sites', 'one', siteId], queryFn: () => berth.sites.get({ id: siteId }) });
  const kinds = siteQuery.data?.environments.map((environment) => environment.kind) ?? [env];
  const restore = useMutation({
    mutationFn: (chosen: Backup) => berth.backups.restore({ id: siteId, env, backup: chosen.id, body: { target } }),
    onSuccess: async (accepted) => {
      await queryClient.invalidateQueries({ queryKey: ['backups', siteId] });
      onStarted(accepted.operation.id);
    },
  });
  const close = () => {
    restore.reset();
    setTarget(env);
    onClose();
  };
  return (
    <ConfirmDialog
      open={backup !== null}
      title={`Restore the backup of ${formatDate(backup?.created_at)}?`}
      confirmLabel={`Overwrite ${target}`}
      typeToConfirm={site.name}
      pending={restore.isPending}
      onConfirm={() => backup && restore.mutate(backup)}
      onCancel={close}
    >
      <SelectField
        name="target"
        label="Restore onto"
        value={target}
        onChange={(event) => setTarget(event.target.value as EnvironmentKind)}
        options={kinds.map((kind) => ({ value: kind, label: kind === env ? `${kind} (this environment)` : kind }))}
        error={fieldErrors(restore.error).target}
      />
      <p>
        The <strong>{target}</strong> environment of {site.name} is <strong>overwritten</strong>: its files and database are replaced by this backup
        {backup?.note ? ` (“${backup.note}”)` : ''}. Changes made since the backup are lost.
      </p>
      <p className="muted">
        Berth backs {target} up first (a “before a restore” backup) and only swaps the restored copy in once it has been checked; the site is down for a few
        seconds during the swap.
      </p>
      <ErrorNotice error={restore.error} />
    </ConfirmDialog>
  );
}
