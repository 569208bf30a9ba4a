import { berth } from '../../api/berth.ts';
import { CheckboxField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';

type Started = (operationId: string, title: string) => void;

/** A WP-CLI command as an operation: its output shows in the operation's log below (docs/wp-cli.md). */
export function WpCliForm({ onStarted }: { onStarted: Started }) {
  const { siteId, env } = useEnvironmentParams();
  const form = useApiForm({
    submit: async (values) => {
      const command = values.command ?? '';
      const accepted = await berth.wordpress.cli({ id: siteId, env, body: { command, timeout_seconds: Number(values.timeout_seconds || 300) } });
      return { operationId: accepted.operation.id, title: `wp ${command}` };
    },
    invalidates: [
      ['plugins', siteId, env],
      ['themes', siteId, env],
    ],
    onSuccess: ({ operationId, title }) => onStarted(operationId, title),
  });
  return (
    <Form form={form} submitLabel="Run">
      <TextField
        name="command"
        label="Command"
        required
        placeholder="plugin list --format=json"
        hint="As typed after wp. Berth runs plugin list|activate|deactivate, theme list|activate, option get|update, user list, cache flush, core version and search-replace; commands that drop the database, write wp-config.php or run PHP are refused."
        error={form.error('command')}
      />
      <TextField name="timeout_seconds" label="Timeout (seconds)" type="number" min={1} max={900} defaultValue={300} error={form.error('timeout_seconds')} />
    </Form>
  );
}

/** A serialized-safe search-replace over the site's tables; a dry run (the default) only counts. */
export function SearchReplaceForm({ onStarted }: { onStarted: Started }) {
  const { siteId, env } = useEnvironmentParams();
  const form = useApiForm({
    submit: async (values) => {
      const tables = (values.tables ?? '')
        .split(',')
        .map((table) => table.trim())
        .filter(Boolean);
      const dryRun = values.dry_run === 'on';
      const body = { search: values.search ?? '', replace: values.replace ?? '', dry_run: dryRun, ...(tables.length > 0 ? { tables } : {}) };
      const accepted = await berth.wordpress.searchReplace({ id: siteId, env, body });
      return { operationId: accepted.operation.id, title: `${dryRun ? 'Counting' : 'Replacing'} ${body.search}` };
    },
    onSuccess: ({ operationId, title }) => onStarted(operationId, title),
  });
  return (
    <Form form={form} submitLabel="Search and replace">
      <TextField name="search" label="Search for" required error={form.error('search')} />
      <TextField name="replace" label="Replace with" error={form.error('replace')} />
      <TextField
        name="tables"
        label="Only these tables"
        placeholder="wp_posts, wp_postmeta"
        hint="Comma-separated; empty for all of the site's tables."
        error={form.error('tables')}
      />
      <CheckboxField name="dry_run" label="Dry run: only count what would change" defaultChecked />
    </Form>
  );
}
