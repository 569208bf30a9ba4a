import { useQuery } from '@tanstack/react-query';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { CheckboxField, SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';

type Team = Awaited<ReturnType<typeof berth.teams.get>>;

const concurrentChoices = [
  { value: 'approve', label: 'Ask the other session to approve' },
  { value: 'allow', label: 'Allow without asking' },
];

/** The team's name, slug and sign-in security settings; editable with `teams:update`. */
export function TeamSettings() {
  const me = useMe();
  const team = useQuery({ queryKey: ['teams', me.team_id], queryFn: () => berth.teams.get({ id: me.team_id }) });
  return (
    <Section title="Settings">
      {team.isPending ? <Loading label="Loading the team" /> : null}
      <ErrorNotice error={team.error} />
      {team.data ? can(me, 'teams:update') ? <SettingsForm team={team.data} /> : <SettingsView team={team.data} /> : null}
    </Section>
  );
}

function SettingsView({ team }: { team: Team }) {
  return (
    <dl className="details">
      <dt>Name</dt>
      <dd>{team.name}</dd>
      <dt>Slug</dt>
      <dd>{team.slug}</dd>
      <dt>New devices</dt>
      <dd>{team.settings.new_device_approval ? 'Need a code e-mailed to the user' : 'Sign in without a code'}</dd>
      <dt>Sign-in while signed in elsewhere</dt>
      <dd>{team.settings.concurrent_sessions === 'approve' ? 'The other session approves it' : 'Allowed'}</dd>
    </dl>
  );
}

function SettingsForm({ team }: { team: Team }) {
  const form = useApiForm({
    submit: (values) =>
      berth.teams.update({
        id: team.id,
        body: {
          name: values.name ?? '',
          slug: values.slug ?? '',
          settings: {
            new_device_approval: values.new_device_approval === 'on',
            concurrent_sessions: values.concurrent_sessions === 'allow' ? 'allow' : 'approve',
          },
        },
      }),
    // the team's name shows in the top bar, from /v1/me
    invalidates: [['teams'], ['me']],
  });
  return (
    <Form form={form} submitLabel="Save settings">
      {form.mutation.isSuccess ? <Notice tone="success">Saved. Security settings apply from the next sign-in.</Notice> : null}
      <TextField name="name" label="Team name" defaultValue={team.name} maxLength={100} required error={form.error('name')} />
      <TextField
        name="slug"
        label="Slug"
        defaultValue={team.slug}
        hint="3 to 40 lower-case letters, digits or single hyphens."
        autoComplete="off"
        spellCheck={false}
        error={form.error('slug')}
      />
      <CheckboxField
        name="new_device_approval"
        label="New devices need a code e-mailed to the user"
        defaultChecked={team.settings.new_device_approval}
        hint="The first sign-in from a browser the user never used waits for the e-mailed code."
      />
      <SelectField
        name="concurrent_sessions"
        label="A sign-in while the user is signed in on another device"
        options={concurrentChoices}
        defaultValue={team.settings.concurrent_sessions}
        error={form.error('settings.concurrent_sessions')}
      />
    </Form>
  );
}
