import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { Notice } from '../../components/ErrorNotice.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { TextField } from '../../components/Field.tsx';
import { AccountFields } from './AccountFields.tsx';
import { AuthFrame } from './AuthFrame.tsx';

function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/** Door A: a new owner with a new team; the e-mail is verified before the first sign-in. */
export default function RegisterPage() {
  const form = useApiForm({
    submit: (values) =>
      berth.browserAuth.registerOwner({
        body: {
          name: values.name ?? '',
          email: values.email ?? '',
          password: values.password ?? '',
          team_name: values.team_name ?? '',
          team_slug: values.team_slug || slugOf(values.team_name ?? ''),
        },
      }),
  });
  if (form.mutation.isSuccess) {
    return (
      <AuthFrame title="Check your e-mail">
        <Notice tone="success">{form.mutation.data.message}</Notice>
        <p>Open the link we sent you, then sign in.</p>
        <p>
          <Link href="/sign-in">Go to sign-in</Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Create your account" footer={<Link href="/sign-in">I already have an account</Link>}>
      <Form form={form} submitLabel="Create account">
        <AccountFields error={form.error} />
        <TextField name="team_name" label="Team or company name" autoComplete="organization" required error={form.error('team_name')} />
        <TextField
          name="team_slug"
          label="Team address (optional)"
          hint="Lower-case letters, digits and dashes; made from the team name when empty."
          error={form.error('team_slug')}
        />
      </Form>
    </AuthFrame>
  );
}
