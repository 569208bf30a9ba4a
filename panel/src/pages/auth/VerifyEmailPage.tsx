import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { Notice } from '../../components/ErrorNotice.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { AuthFrame, tokenFromUrl } from './AuthFrame.tsx';

/** The verification link's page. Opening it changes nothing: the button confirms (a mail scanner that follows links cannot). */
export default function VerifyEmailPage() {
  const token = tokenFromUrl();
  const form = useApiForm({ submit: () => berth.browserAuth.confirmEmailVerification({ body: { token } }) });
  return (
    <AuthFrame title="Verify your e-mail">
      {form.mutation.isSuccess ? (
        <>
          <Notice tone="success">{form.mutation.data.message}</Notice>
          <p>
            <Link href="/sign-in">Sign in</Link>
          </p>
        </>
      ) : (
        <Form form={form} submitLabel="Verify my e-mail address">
          {token ? <p>Confirm that this address is yours.</p> : <Notice tone="warning">This page needs the link from your e-mail.</Notice>}
        </Form>
      )}
    </AuthFrame>
  );
}
