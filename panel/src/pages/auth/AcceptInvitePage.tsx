import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { Notice } from '../../components/ErrorNotice.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { AccountFields } from './AccountFields.tsx';
import { AuthFrame, tokenFromUrl } from './AuthFrame.tsx';

/** Door B: the link of an invitation; the invited person makes their account and joins the team. */
export default function AcceptInvitePage() {
  const token = tokenFromUrl();
  const form = useApiForm({
    submit: (values) =>
      berth.browserAuth.registerFromInvite({
        body: { invite_token: token, name: values.name ?? '', email: values.email ?? '', password: values.password ?? '' },
      }),
  });
  if (form.mutation.isSuccess) {
    return (
      <AuthFrame title="Welcome aboard">
        <Notice tone="success">
          {form.mutation.data.message} You joined as {form.mutation.data.role_name}.
        </Notice>
        <p>
          <Link href="/sign-in">Sign in</Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Join your team" footer={<Link href="/sign-in">Sign in instead</Link>}>
      {token ? null : <Notice tone="warning">This page needs the link from your invitation e-mail.</Notice>}
      <p>You were invited to a team on Berth. Create your account with the address the invitation was sent to.</p>
      <Form form={form} submitLabel="Create account and join">
        <AccountFields error={form.error} />
      </Form>
    </AuthFrame>
  );
}
