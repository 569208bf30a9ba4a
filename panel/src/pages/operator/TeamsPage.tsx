import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { LimitsList } from '../billing/LimitsList.tsx';

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/**
 * A team's limits, set by hand for a team billed outside Berth (PUT /v1/admin/teams/{team_id}/entitlements).
 * The API has no operator read of another team's limits nor a list of every team: the team is named
 * by its id (invoices list it), and what is shown is what the last save answered.
 */
export default function TeamsPage() {
  const teams = useQuery({ queryKey: ['teams', 'mine'], queryFn: () => berth.teams.list({ page_size: 100 }) });
  const [teamId, setTeamId] = useState('');
  const form = useApiForm({
    submit: (values) =>
      berth.entitlements.set({
        team_id: Number(values.team_id),
        body: {
          plan: values.plan ?? '',
          max_sites: Number(values.max_sites),
          max_disk_bytes: Math.round(Number(values.max_disk_gib) * GiB),
          ...(values.memory_mib ? { environment_memory_bytes: Math.round(Number(values.memory_mib) * MiB) } : {}),
          ...(values.cpu_millicores ? { environment_cpu_millicores: Number(values.cpu_millicores) } : {}),
          ...(values.backups_scheduled_keep ? { backups_scheduled_keep: Number(values.backups_scheduled_keep) } : {}),
          ...(values.backups_manual_keep ? { backups_manual_keep: Number(values.backups_manual_keep) } : {}),
        },
      }),
    invalidates: [['entitlements']],
  });
  const saved = form.mutation.data;
  return (
    <Page title="Team limits">
      <p className="muted">
        For teams billed outside Berth. A subscription writes these limits itself when it becomes active, so a later payment overwrites what is set here.
      </p>
      <Section title="Set a team's limits">
        {saved ? (
          <Notice tone="success">
            Team {saved.team_id} now has plan <strong>{saved.plan}</strong>:
            <LimitsList limits={saved} />
          </Notice>
        ) : null}
        <Form form={form} submitLabel="Set limits">
          <TextField
            name="team_id"
            label="Team id"
            type="number"
            min={1}
            required
            list="operator-team-ids"
            value={teamId}
            onChange={(event) => setTeamId(event.target.value)}
            hint="The number the operator invoices list shows as the team."
            error={form.error('team_id')}
          />
          <datalist id="operator-team-ids">
            {(teams.data?.data ?? []).map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </datalist>
          <TextField name="plan" label="Plan name" required maxLength={50} error={form.error('plan')} />
          <TextField name="max_sites" label="Most sites" type="number" min={0} required error={form.error('max_sites')} />
          <TextField name="max_disk_gib" label="Disk (GiB)" type="number" min={0} step="any" required error={form.error('max_disk_bytes')} />
          <TextField
            name="memory_mib"
            label="Memory per environment (MiB, optional)"
            type="number"
            min={128}
            hint="512 when empty."
            error={form.error('environment_memory_bytes')}
          />
          <TextField
            name="cpu_millicores"
            label="CPU per environment (thousandths of a core, optional)"
            type="number"
            min={100}
            max={64000}
            hint="1000 (one core) when empty."
            error={form.error('environment_cpu_millicores')}
          />
          <TextField
            name="backups_scheduled_keep"
            label="Scheduled backups kept (optional)"
            type="number"
            min={1}
            hint="14 when empty."
            error={form.error('backups_scheduled_keep')}
          />
          <TextField
            name="backups_manual_keep"
            label="Manual backups kept (optional)"
            type="number"
            min={1}
            hint="10 when empty."
            error={form.error('backups_manual_keep')}
          />
        </Form>
        <ErrorNotice error={teams.error} />
      </Section>
    </Page>
  );
}
