import type { Environment } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { CheckboxField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Section } from '../../components/Page.tsx';

type Started = (accepted: { operation: { id: string } }) => void;
type Target = { siteId: number; env: Environment['kind'] };

/** HTTPS forcing with HSTS, and HTTP basic auth, of one environment; each change runs as an `environment.edge` operation. */
export function EdgeSettings({ environment, target, onStarted }: { environment: Environment; target: Target; onStarted: Started }) {
  const invalidates = [['environments'], ['sites']];
  const https = useApiForm({
    submit: (values) =>
      berth.environments.https({
        id: target.siteId,
        env: target.env,
        body: { force: values.force === 'on', hsts_max_age_seconds: Number(values.hsts_max_age_seconds ?? 0) },
      }),
    invalidates,
    onSuccess: onStarted,
  });
  const protection = useApiForm({
    submit: (values) =>
      berth.environments.passwordProtection({
        id: target.siteId,
        env: target.env,
        body:
          values.enabled === 'on'
            ? { enabled: true, ...(values.username ? { username: values.username } : {}), ...(values.password ? { password: values.password } : {}) }
            : { enabled: false },
      }),
    invalidates,
    onSuccess: onStarted,
  });
  const { https: state, password_protection: guarded } = environment;
  return (
    <>
      <Section title="HTTPS">
        <p className="muted">
          WordPress&apos;s addresses use <strong>{state.url_scheme}</strong>.{' '}
          {state.url_scheme === 'https'
            ? 'HTTP is redirected to HTTPS.'
            : state.force
              ? 'HTTPS is forced as soon as an installed certificate covers the address (Domains).'
              : 'HTTPS is not forced.'}
        </p>
        <Form form={https} submitLabel="Save HTTPS settings" className="form">
          <CheckboxField name="force" label="Force HTTPS" defaultChecked={state.force} hint="Redirects HTTP to HTTPS and moves WordPress's links to https." />
          <TextField
            name="hsts_max_age_seconds"
            label="HSTS max-age (seconds)"
            type="number"
            min={0}
            max={63072000}
            defaultValue={String(state.hsts_max_age_seconds)}
            hint="0 sends no Strict-Transport-Security header. Browsers remember it: lower it before turning HTTPS off."
            error={https.error('hsts_max_age_seconds')}
          />
        </Form>
      </Section>
      <Section title="Password protection">
        <p className="muted">
          {guarded.enabled ? `Visitors must sign in as ${guarded.username ?? ''}.` : 'Anyone can open this environment.'} Certificate challenges always pass.
        </p>
        <Form form={protection} submitLabel="Save password protection" className="form">
          <CheckboxField name="enabled" label="Protect with a password" defaultChecked={guarded.enabled} />
          <TextField name="username" label="User name" autoComplete="off" defaultValue={guarded.username ?? ''} error={protection.error('username')} />
          <TextField
            name="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            hint="8 to 128 characters; leave empty to keep the current one. Only a hash is stored."
            error={protection.error('password')}
          />
        </Form>
      </Section>
    </>
  );
}
