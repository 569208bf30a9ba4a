import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { Environment } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { CheckboxField, SelectField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Section } from '../../components/Page.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { EdgeSettings } from '../edge/EdgeSettings.tsx';
import { PageCacheSettings } from '../edge/PageCacheSettings.tsx';
import { EnvironmentFrame, useEnvironmentParams, type EnvironmentKind } from './EnvironmentFrame.tsx';

const kinds: EnvironmentKind[] = ['production', 'staging', 'development'];

/** An environment's overview: what runs, PHP version, push to another environment, restart, delete. */
export default function EnvironmentPage() {
  return <EnvironmentFrame title="Overview">{(environment, site) => <Overview environment={environment} site={site} />}</EnvironmentFrame>;
}

function Overview({ environment, site }: { environment: Environment; site: { id: number; name: string } }) {
  const { siteId, env } = useEnvironmentParams();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [operationId, setOperationId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const php = useQuery({ queryKey: ['php-versions'], queryFn: () => berth.sites.listPhpVersions(), staleTime: Infinity });
  const started = (accepted: { operation: { id: string } }) => setOperationId(accepted.operation.id);
  const phpForm = useApiForm({
    submit: (values) => berth.environments.update({ id: siteId, env, body: { php_version: values.php_version ?? '' } }),
    invalidates: [['environments'], ['sites']],
    onSuccess: (answer) => {
      if (answer && typeof answer === 'object' && 'operation' in answer) started(answer as { operation: { id: string } });
    },
  });
  const push = useApiForm({
    submit: (values) =>
      berth.environments.push({
        id: siteId,
        env,
        body: { target: values.target as EnvironmentKind, files: values.files === 'on', database: values.database === 'on' },
      }),
    onSuccess: started,
  });
  const restart = useMutation({ mutationFn: () => berth.environments.restart({ id: siteId, env }), onSuccess: started });
  const remove = useMutation({
    mutationFn: () => berth.environments.delete({ id: siteId, env }),
    onSuccess: async (accepted) => {
      await queryClient.invalidateQueries({ queryKey: ['sites'] });
      navigate(`/sites/${siteId}?operation=${accepted.operation.id}`);
    },
  });
  const wordpress = environment.wordpress as { version?: string | null } | null;
  return (
    <>
      {operationId ? (
        <Section title="In progress">
          <OperationProgress id={operationId} />
        </Section>
      ) : null}
      <Section title="Details">
        <dl className="details">
          <dt>Domain</dt>
          <dd>{environment.primary_domain ?? environment.domain}</dd>
          <dt>PHP</dt>
          <dd>{environment.php_version}</dd>
          <dt>WordPress</dt>
          <dd>{wordpress?.version ?? 'not read yet'}</dd>
          <dt>Memory limit</dt>
          <dd>{Math.round(environment.memory_limit_bytes / 1024 / 1024)} MB</dd>
        </dl>
        <button type="button" className="button" onClick={() => restart.mutate()} disabled={restart.isPending}>
          Restart
        </button>
        <ErrorNotice error={restart.error} />
      </Section>
      <EdgeSettings environment={environment} target={{ siteId, env }} onStarted={started} />
      <PageCacheSettings siteId={siteId} env={env} environment={environment} />
      <Section title="PHP version">
        <Form form={phpForm} submitLabel="Change PHP version" className="form form-inline">
          <SelectField
            name="php_version"
            label="PHP version"
            key={environment.php_version}
            defaultValue={environment.php_version}
            options={(php.data?.versions ?? [environment.php_version]).map((version) => ({ value: version, label: `PHP ${version}` }))}
            error={phpForm.error('php_version')}
          />
        </Form>
      </Section>
      <Section title="Push">
        <Form form={push} submitLabel="Push">
          <SelectField
            name="target"
            label="Copy this environment to"
            options={kinds.filter((kind) => kind !== env).map((kind) => ({ value: kind, label: kind }))}
            error={push.error('target')}
          />
          <CheckboxField name="files" label="Files (the target keeps its own wp-config.php)" defaultChecked />
          <CheckboxField name="database" label="Database (URLs rewritten to the target's)" defaultChecked />
        </Form>
      </Section>
      {env !== 'production' ? (
        <Section title="Delete">
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            Delete {env}
          </button>
        </Section>
      ) : null}
      <ConfirmDialog
        open={deleting}
        title={`Delete ${env} of ${site.name}?`}
        confirmLabel={`Delete ${env}`}
        typeToConfirm={site.name}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      >
        <p>Its files, database and domains go.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
