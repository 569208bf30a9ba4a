import { berth } from '../../api/berth.ts';
import { Notice } from '../../components/ErrorNotice.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Page } from '../../components/Page.tsx';
import { tokenFromUrl } from './AuthFrame.tsx';

/** The e-mailed link of a sign-in waiting while you are signed in: decide it from this (live) session. */
export default function ConcurrentLoginPage() {
  const token = tokenFromUrl();
  const approve = useApiForm({ submit: () => berth.browserAuth.approveConcurrentLogin({ body: { token } }) });
  const deny = useApiForm({ submit: () => berth.browserAuth.denyConcurrentLogin({ body: { token } }) });
  const decided = approve.mutation.isSuccess ? 'approved' : deny.mutation.isSuccess ? 'denied' : null;
  return (
    <Page title="Sign-in waiting for you">
      {decided ? (
        <Notice tone="success">The sign-in was {decided}.</Notice>
      ) : (
        <>
          <p>Someone with your password is signing in on another device. Is it you?</p>
          <div className="button-row">
            <Form form={approve} submitLabel="Approve">
              {null}
            </Form>
            <Form form={deny} submitLabel="Deny">
              {null}
            </Form>
          </div>
        </>
      )}
    </Page>
  );
}
