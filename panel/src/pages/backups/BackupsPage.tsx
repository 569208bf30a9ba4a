import { useState } from 'react';
import type { StartedOperation } from '../../live/started-operation.ts';
import { berth } from '../../api/berth.ts';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Section } from '../../components/Page.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { EnvironmentFrame, useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';
import { BackupList } from './BackupList.tsx';
import { BackupSchedules } from './BackupSchedules.tsx';

/** An environment's backups: back up now, the list (live), restore, download, delete, and the schedules. */
export default function BackupsPage() {
  return <EnvironmentFrame title="Backups">{(_environment, site) => <Backups site={site} />}</EnvironmentFrame>;
}

function Backups({ site }: { site: { id: number; name: string } }) {
  const { siteId, env } = useEnvironmentParams();
  const [operation, setOperation] = useState<StartedOperation | null>(null);
  const create = useApiForm({
    submit: (values) => berth.backups.create({ id: siteId, env, body: values.note ? { note: values.note } : {} }),
    invalidates: [['backups', siteId, env]],
    onSuccess: (accepted) => setOperation({ id: accepted.operation.id, title: 'Backup' }),
  });
  return (
    <>
      {operation ? (
        <Section title="In progress">
          {/* keyed: a second operation started here gets a fresh stream, not the first one's log */}
          <OperationProgress key={operation.id} id={operation.id} title={operation.title} />
        </Section>
      ) : null}
      <Section title="Back up now">
        <Form form={create} submitLabel="Back up now" className="form form-inline">
          <TextField name="note" label="Note (optional)" maxLength={200} placeholder="before the theme update" error={create.error('note')} />
        </Form>
      </Section>
      <BackupList site={site} onOperation={setOperation} />
      <BackupSchedules />
    </>
  );
}
