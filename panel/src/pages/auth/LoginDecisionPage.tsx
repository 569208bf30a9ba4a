import { useRoute } from 'wouter';
import { berth } from '../../api/berth.ts';
import { Notice } from '../../components/ErrorNotice.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { AuthFrame, tokenFromUrl } from './AuthFrame.tsx';

/** The links of the suspicious-sign-in e-mail: /login/approve and /login/deny. The button decides, not the visit. */
export default function LoginDecisionPage() {
  const [approving] = useRoute('/login/approve');
  const token = tokenFromUrl();
  const form = useApiForm<{ status: string }>({
    submit: () => (approving ? berth.browserAuth.approveLogin({ body: { token } }) : berth.browserAuth.denyLogin({ body: { token } })),
  });
  return (
    <AuthFrame title={approving ? 'Was it you?' : 'Not you?'}>
      {form.mutation.isSuccess ? (
        <Notice tone="success">
          {approving ? 'Approved: we will remember this place.' : 'Denied: that session has ended. We sent you a link to choose a new password.'}
        </Notice>
      ) : (
        <Form form={form} submitLabel={approving ? 'Yes, it was me' : 'It was not me: end that session'}>
          <p>{approving ? 'Approve the sign-in we e-mailed you about.' : 'Deny the sign-in we e-mailed you about.'}</p>
        </Form>
      )}
    </AuthFrame>
  );
}
