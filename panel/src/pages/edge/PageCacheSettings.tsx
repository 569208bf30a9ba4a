import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Environment } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { CheckboxField, TextAreaField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Section } from '../../components/Page.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import type { EnvironmentKind } from '../sites/EnvironmentFrame.tsx';

/** One path prefix a line; blank lines ignored. */
function linesOf(text: string | undefined): string[] {
  return (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The environment's page cache at the edge (docs/api/edge.md): on or off, the path prefixes it never
 * caches, and a purge of its cached pages, each change an operation whose progress shows here.
 */
export function PageCacheSettings({ siteId, env, environment }: { siteId: number; env: EnvironmentKind; environment: Environment }) {
  const queryClient = useQueryClient();
  const [operationId, setOperationId] = useState<string | null>(null);
  const [purgePaths, setPurgePaths] = useState('');
  const cache = environment.page_cache;
  const settings = useApiForm({
    submit: (values) => berth.environments.pageCache({ id: siteId, env, body: { enabled: values.enabled === 'on', exclusions: linesOf(values.exclusions) } }),
    invalidates: [['environments'], ['sites']],
    onSuccess: (accepted) => setOperationId(accepted.operation.id),
  });
  const purge = useMutation({
    mutationFn: () => {
      const paths = linesOf(purgePaths);
      return berth.environments.purgePageCache({ id: siteId, env, body: paths.length > 0 ? { paths } : {} });
    },
    onSuccess: async (accepted) => {
      setOperationId(accepted.operation.id);
      await queryClient.invalidateQueries({ queryKey: ['operations'] });
    },
  });
  return (
    <Section title="Page cache">
      <p className="muted">
        Pages are cached at the edge for 10 minutes. Logged-in visitors, carts, query strings, wp-admin, the REST API and feeds are never cached; the
        answer&apos;s <code>X-Cache</code> header says HIT, MISS or BYPASS.
      </p>
      <Form form={settings} submitLabel="Save page cache settings">
        <CheckboxField name="enabled" label="Cache pages at the edge" key={`enabled-${cache.enabled}`} defaultChecked={cache.enabled} />
        <TextAreaField
          name="exclusions"
          label="Never cache these path prefixes (one a line, each starting with /)"
          key={`exclusions-${cache.exclusions.join('|')}`}
          defaultValue={cache.exclusions.join('\n')}
          rows={4}
          error={settings.error('exclusions')}
        />
      </Form>
      <div className="form">
        <TextAreaField
          name="purge_paths"
          label="Purge only these paths (one a line; /blog/* for every page below /blog/; empty: every page)"
          value={purgePaths}
          onChange={(event) => setPurgePaths(event.currentTarget.value)}
          rows={2}
        />
        <button type="button" className="button" onClick={() => purge.mutate()} disabled={purge.isPending}>
          Purge cache
        </button>
        <ErrorNotice error={purge.error} />
      </div>
      {operationId ? <OperationProgress id={operationId} /> : null}
    </Section>
  );
}
