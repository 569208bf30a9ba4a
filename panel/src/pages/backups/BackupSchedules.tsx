import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';
import { describeCron } from './cron.ts';
import { formatDate } from './format.ts';
import { ScheduleForm, type BackupSchedule } from './ScheduleForm.tsx';

const MAX_SCHEDULES = 5;

/** The environment's backup schedules (at most five) and how many backups the plan keeps. */
export function BackupSchedules() {
  const { siteId, env } = useEnvironmentParams();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<BackupSchedule | null>(null);
  const [deleting, setDeleting] = useState<BackupSchedule | null>(null);
  const key = ['backup-schedules', siteId, env];
  const schedules = useQuery({ queryKey: key, queryFn: () => berth.backupSchedules.list({ id: siteId, env, page_size: 100 }) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  // pausing and resuming set a flag: sending it twice is harmless
  const toggle = useMutation({
    mutationFn: (schedule: BackupSchedule) => berth.backupSchedules.update({ id: siteId, env, schedule: schedule.id, body: { enabled: !schedule.enabled } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (schedule: BackupSchedule) => berth.backupSchedules.delete({ id: siteId, env, schedule: schedule.id }),
    onSuccess: async () => {
      setDeleting(null);
      await refresh();
    },
  });
  const rows = schedules.data?.data ?? [];
  return (
    <Section title="Schedules">
      <Retention />
      {schedules.isPending ? <Loading label="Loading schedules" /> : null}
      <ErrorNotice error={schedules.error ?? toggle.error} />
      {schedules.data ? (
        <DataTable<BackupSchedule>
          caption={`Backup schedules of ${env}`}
          rows={rows}
          rowKey={(schedule) => schedule.id}
          empty="No schedules: this environment is only backed up when you ask."
          columns={[
            {
              header: 'When',
              cell: (schedule) => (
                <>
                  {describeCron(schedule.cron)} <small className="muted">({schedule.timezone})</small>
                  <br />
                  <code>{schedule.cron}</code>
                </>
              ),
            },
            { header: 'Status', cell: (schedule) => <StatusBadge status={schedule.enabled ? 'enabled' : 'disabled'} /> },
            { header: 'Next backup', cell: (schedule) => (schedule.enabled ? formatDate(schedule.next_run_at) : 'paused') },
            { header: 'Last run', cell: (schedule) => formatDate(schedule.last_slot_at) },
            {
              header: 'Actions',
              cell: (schedule) => (
                <div className="button-row">
                  <button type="button" className="button" onClick={() => toggle.mutate(schedule)} disabled={toggle.isPending}>
                    {schedule.enabled ? 'Pause' : 'Resume'}
                  </button>
                  <button type="button" className="button" onClick={() => setEditing(schedule)}>
                    Change
                  </button>
                  <button type="button" className="button button-danger" onClick={() => setDeleting(schedule)}>
                    Delete
                  </button>
                </div>
              ),
            },
          ]}
        />
      ) : null}
      {editing ? (
        <>
          <h3>Change the schedule “{describeCron(editing.cron)}”</h3>
          <ScheduleForm key={editing.id} schedule={editing} onDone={() => setEditing(null)} />
        </>
      ) : schedules.data && rows.length < MAX_SCHEDULES ? (
        <>
          <h3>Add a schedule</h3>
          <ScheduleForm />
        </>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this schedule?"
        confirmLabel="Delete schedule"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => {
          remove.reset();
          setDeleting(null);
        }}
      >
        <p>“{deleting ? describeCron(deleting.cron) : ''}” stops. The backups it made stay, and are kept or removed by the plan's retention like any other.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}

/** How many backups the team's plan keeps per environment (older ones expire). */
function Retention() {
  const entitlements = useQuery({ queryKey: ['entitlements'], queryFn: () => berth.entitlements.get(), staleTime: 60_000, retry: false });
  // a role without teams:read cannot see the plan's limits: the page works without them
  if (!entitlements.data) return null;
  const { backups_scheduled_keep: scheduled, backups_manual_keep: manual } = entitlements.data;
  return (
    <p>
      Retention on your plan ({entitlements.data.plan}): the newest <strong>{scheduled}</strong> scheduled backups and the newest <strong>{manual}</strong>{' '}
      manual backups of each environment are kept (and as many of those Berth takes before a restore or a push); older ones expire.
    </p>
  );
}
