import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { Notice } from '../../components/ErrorNotice.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { TextField } from '../../components/Field.tsx';
import { NewPasswordField } from './AccountFields.tsx';
import { AuthFrame, tokenFromUrl } from './AuthFrame.tsx';

/** Without a token: ask for a reset link. With the link's token: choose the new password. */
export default function ResetPasswordPage() {
  const token = tokenFromUrl();
  const request = useApiForm({ submit: (values) => berth.browserAuth.requestPasswordReset({ body: { email: values.email ?? '' } }) });
  const confirm = useApiForm({ submit: (values) => berth.browserAuth.confirmPasswordReset({ body: { token, new_password: values.new_password ?? '' } }) });
  if (token) {
    return (
      <AuthFrame title="Choose a new password" footer={<Link href="/sign-in">Back to sign-in</Link>}>
        {confirm.mutation.isSuccess ? (
          <Notice tone="success">{confirm.mutation.data.message} You can sign in with it now.</Notice>
        ) : (
          <Form form={confirm} submitLabel="Set the new password">
            <NewPasswordField name="new_password" label="New password" error={confirm.error} />
          </Form>
        )}
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Reset your password" footer={<Link href="/sign-in">Back to sign-in</Link>}>
      {request.mutation.isSuccess ? (
        <Notice tone="success">{request.mutation.data.message}</Notice>
      ) : (
        <Form form={request} submitLabel="Send me a reset link">
          <TextField name="email" label="E-mail" type="email" autoComplete="email" required error={request.error('email')} />
        </Form>
      )}
    </AuthFrame>
  );
}
