import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { berth } from '../../api/berth.ts';
import { useMe } from '../../app/session.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Section } from '../../components/Page.tsx';

type Enrolment = Awaited<ReturnType<typeof berth.browserAuth.setupTotp>>;

/**
 * TOTP enrolment: setup gives a secret (as a QR code and as text) and ten backup codes, shown only
 * now; 2FA stays off until a code of the app is verified. Once on, it cannot be turned off here
 * (the API offers no way yet).
 */
export function TotpSetup() {
  const me = useMe();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const setup = useMutation({ mutationFn: () => berth.browserAuth.setupTotp(), onSuccess: setEnrolment });
  const verify = useApiForm({
    submit: (values) => berth.browserAuth.verifyTotp({ body: { totp_code: (values.totp_code ?? '').trim() } }),
    invalidates: [['me']],
    onSuccess: () => setEnrolment(null),
  });
  if (me.two_factor_enabled) {
    return (
      <Section title="Two-factor authentication">
        {verify.mutation.isSuccess ? <Notice tone="success">Two-factor authentication is on. Keep your backup codes somewhere safe.</Notice> : null}
        <p>Two-factor authentication is on: every sign-in asks for a code of your authenticator app (or a backup code).</p>
      </Section>
    );
  }
  return (
    <Section title="Two-factor authentication">
      {enrolment ? (
        <>
          <ol className="account-steps">
            <li>
              <p>Scan this QR code with your authenticator app, or type the key by hand.</p>
              <QrCode value={enrolment.qr_code_url} />
              <p>
                Key: <code className="account-secret">{enrolment.secret}</code>
              </p>
            </li>
            <li>
              <p>
                <strong>Save these backup codes now</strong>: they are shown only this once. Each one signs you in once if you lose your authenticator.
              </p>
              <ul className="account-codes" aria-label="Backup codes">
                {enrolment.backup_codes.map((code) => (
                  <li key={code}>
                    <code>{code}</code>
                  </li>
                ))}
              </ul>
            </li>
            <li>
              <p>Enter the code your app shows to turn two-factor authentication on.</p>
              <Form form={verify} submitLabel="Verify and turn on" className="form form-inline">
                <TextField
                  name="totp_code"
                  label="6-digit code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="\d{6}"
                  maxLength={6}
                  required
                  error={verify.error('totp_code')}
                />
              </Form>
            </li>
          </ol>
          <p className="muted">Starting again replaces this key and these codes.</p>
        </>
      ) : (
        <p>Two-factor authentication is off. With it on, a sign-in also needs a code from an authenticator app on your phone.</p>
      )}
      <ErrorNotice error={setup.error} />
      <div className="button-row">
        <button type="button" className={enrolment ? 'button' : 'button button-primary'} onClick={() => setup.mutate()} disabled={setup.isPending}>
          {enrolment ? 'Start again' : 'Set up two-factor authentication'}
        </button>
      </div>
    </Section>
  );
}

/** The otpauth URI as a QR code drawn here, in the browser: the secret goes to no other server. */
function QrCode({ value }: { value: string }) {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    // loaded only when a setup starts: the rest of the security page does without it
    import('qrcode')
      .then(({ default: QRCode }) => QRCode.toDataURL(value, { margin: 2, width: 220 }))
      .then((url) => current && setDataUrl(url))
      .catch((error: unknown) => current && setFailure(error));
    return () => {
      current = false;
    };
  }, [value]);
  if (failure) return <ErrorNotice error={failure} title="The QR code could not be drawn; type the key instead" />;
  if (!dataUrl) return null;
  return <img className="account-qr" alt="QR code for your authenticator app" src={dataUrl} width={220} height={220} />;
}
