import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { berth } from '../../api/berth.ts';
import { isNotFound } from '../../api/errors.ts';
import { NotFoundPage } from '../../app/NotFoundPage.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { RecentOperations } from '../operations/RecentOperations.tsx';

const environmentKinds = ['staging', 'development'] as const;

/** One site: its environments, the operation under way (live), adding staging/development, cloning, deleting. */
export default function SitePage() {
  const { siteId } = useParams<{ siteId: string }>();
  const id = Number(siteId);
  const operationId = new URLSearchParams(useSearch()).get('operation');
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  // the password of a new staging/development environment is shown once, in the answer that made it
  const [credentials, setCredentials] = useState<{ kind: string; username: string; password: string | null } | null>(null);
  const site = useQuery({ queryKey: ['sites', 'one', id], queryFn: () => berth.sites.get({ id }) });
  const addEnvironment = useApiForm({
    submit: (values) =>
      berth.environments.create({
        id,
        body: { kind: values.kind as (typeof environmentKinds)[number], source: (values.source || 'production') as 'production' },
      }),
    invalidates: [['sites']],
    onSuccess: (accepted) => {
      setCredentials({ kind: accepted.environment.kind, ...accepted.password_protection });
      navigate(`/sites/${id}?operation=${accepted.operation.id}`);
    },
  });
  const clone = useApiForm({
    submit: (values) => berth.sites.clone({ id, body: { name: values.name ?? '' } }),
    invalidates: [['sites']],
    onSuccess: (accepted) => navigate(`/sites/${accepted.site.id}?operation=${accepted.operation.id}`),
  });
  const remove = useMutation({
    mutationFn: () => berth.sites.delete({ id }),
    onSuccess: async (accepted) => {
      await queryClient.invalidateQueries({ queryKey: ['sites'] });
      navigate(`/operations/${accepted.operation.id}`);
    },
  });
  if (site.isPending) return <Loading label="Loading the site" />;
  // another team's site looks exactly like one that does not exist
  if (site.isError) return isNotFound(site.error) ? <NotFoundPage /> : <ErrorNotice error={site.error} />;
  const data = site.data;
  const missing = environmentKinds.filter((kind) => !data.environments.some((environment) => environment.kind === kind));
  return (
    <Page
      title={data.name}
      back={{ href: '/', label: 'Sites' }}
      actions={
        <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
          Delete site
        </button>
      }
    >
      <p>
        <StatusBadge status={data.status} /> <span className="muted">Region {data.region}</span>
      </p>
      {operationId ? (
        <Section title="In progress">
          <OperationProgress id={operationId} />
        </Section>
      ) : null}
      {credentials?.password ? (
        <div className="notice" role="status">
          <p>
            The {credentials.kind} environment is password-protected. User name <code>{credentials.username}</code>, password{' '}
            <code>{credentials.password}</code>: copy it now, it is not shown again (change it on the environment&apos;s page).
          </p>
        </div>
      ) : null}
      <Section title="Environments">
        <ul className="cards">
          {data.environments.map((environment) => (
            <li key={environment.id} className="env-card">
              <h3>
                <Link href={`/sites/${id}/environments/${environment.kind}`}>{environment.kind}</Link> <StatusBadge status={environment.status} />
              </h3>
              <p>
                {environment.url ? (
                  <a href={environment.url} target="_blank" rel="noreferrer">
                    {environment.primary_domain ?? environment.domain}
                  </a>
                ) : (
                  environment.domain
                )}
              </p>
              <p className="muted">PHP {environment.php_version}</p>
            </li>
          ))}
        </ul>
        {missing.length > 0 ? (
          <Form form={addEnvironment} submitLabel="Add environment" className="form form-inline">
            <SelectField
              name="kind"
              label="New environment"
              options={missing.map((kind) => ({ value: kind, label: kind }))}
              error={addEnvironment.error('kind')}
            />
            <SelectField
              name="source"
              label="Copy of"
              options={data.environments.map((environment) => ({ value: environment.kind, label: environment.kind }))}
              error={addEnvironment.error('source')}
            />
          </Form>
        ) : null}
      </Section>
      <Section title="Recent operations">
        <RecentOperations
          targets={[{ type: 'site', id: String(id) }, ...data.environments.map((environment) => ({ type: 'environment', id: String(environment.id) }))]}
        />
      </Section>
      <Section title="Clone">
        <Form form={clone} submitLabel="Clone site" className="form form-inline">
          <TextField name="name" label="Name of the copy" required error={clone.error('name')} />
        </Form>
      </Section>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${data.name}?`}
        confirmLabel="Delete site"
        typeToConfirm={data.name}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      >
        <p>Every environment, its files, database and domains go. Backups are kept for their retention period.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Page>
  );
}
