import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { CheckboxField, SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';

type Kind = 'plugin' | 'theme';

/**
 * Installing is two calls: the zip goes to POST /v1/uploads as the raw body (the SDK sends the File
 * as it is), then the install operation names the upload's id.
 */
export function InstallForm({ onStarted }: { onStarted: (operationId: string, title: string) => void }) {
  const { siteId, env } = useEnvironmentParams();
  const [file, setFile] = useState<File | null>(null);
  const form = useApiForm({
    submit: async (values) => {
      if (!file) throw new Error('Choose a zip file to install.');
      const kind = values.kind as Kind;
      const upload = await berth.uploads.create({ filename: file.name, body: file });
      const body = { upload_id: upload.id, activate: values.activate === 'on', overwrite: values.overwrite === 'on' };
      const accepted = kind === 'plugin' ? await berth.plugins.install({ id: siteId, env, body }) : await berth.themes.install({ id: siteId, env, body });
      return { operationId: accepted.operation.id, title: `Installing ${kind} ${file.name}` };
    },
    invalidates: [
      ['plugins', siteId, env],
      ['themes', siteId, env],
    ],
    onSuccess: ({ operationId, title }) => onStarted(operationId, title),
  });
  return (
    <Form form={form} submitLabel="Upload and install">
      <SelectField
        name="kind"
        label="What it is"
        options={[
          { value: 'plugin', label: 'A plugin' },
          { value: 'theme', label: 'A theme' },
        ]}
      />
      <TextField
        name="file"
        label="Zip file"
        type="file"
        accept=".zip,application/zip"
        required
        onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        hint="A plugin or theme package as downloaded from WordPress.org or its vendor; at most 64 MB."
        error={form.error('filename') ?? form.error('upload_id')}
      />
      <CheckboxField name="activate" label="Activate it once installed" />
      <CheckboxField name="overwrite" label="Replace an installed one of the same name (an update)" />
    </Form>
  );
}
