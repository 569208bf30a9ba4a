import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { berth } from '../../api/berth.ts';
import { BerthError } from '@berth/sdk';
import { Form, useApiForm } from '../../components/Form.tsx';
import { CheckboxField, TextField } from '../../components/Field.tsx';
import { Notice } from '../../components/ErrorNotice.tsx';
import { AuthFrame } from './AuthFrame.tsx';
import { deviceFingerprint } from './device-fingerprint.ts';

type Team = { team_id: number; team_name: string; role_name: string; status: string };
type Step =
  | { kind: 'credentials' }
  | { kind: 'unverified'; email: string }
  | { kind: 'team'; preAuthToken: string; teams: Team[] }
  | { kind: 'device'; preAuthToken: string; teamId: number }
  | { kind: 'concurrent'; preAuthToken: string; teamId: number }
  | { kind: 'second-factor' };

const CONCURRENT_POLL_MS = 3000;

/** Where to go once signed in: the `next` of the URL when it is a path of the panel, else the sites. */
function nextPath(): string {
  const next = new URLSearchParams(window.location.search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * Sign-in, every step of the cookie surface: credentials, the team, a new device's e-mailed code,
 * a concurrent login waiting for its decision, and the second factor (TOTP or a backup code).
 */
export default function SignInPage() {
  const [step, setStep] = useState<Step>({ kind: 'credentials' });
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();

  const finish = async () => {
    try {
      // the cookie surface's /me: a 401 here is an answer (no session renewal is tried)
      await berth.browserAuth.me();
    } catch (error) {
      if (error instanceof BerthError && error.code === 'totp_required') {
        setStep({ kind: 'second-factor' });
        return;
      }
      throw error;
    }
    queryClient.clear();
    navigate(nextPath(), { replace: true });
  };

  /** Step 2: the session in a team; what the API answers decides the next step. */
  const exchange = async (preAuthToken: string, teamId: number): Promise<void> => {
    try {
      await berth.browserAuth.exchangeSession({
        body: {
          pre_auth_token: preAuthToken,
          team_id: teamId,
          session_info: { device_fingerprint: deviceFingerprint(), user_agent: navigator.userAgent.slice(0, 512) },
        },
      });
    } catch (error) {
      const code = error instanceof BerthError ? error.code : undefined;
      if (code === 'device_approval_required') {
        await berth.browserAuth.challengeDevice({
          body: { pre_auth_token: preAuthToken, device_fingerprint: deviceFingerprint(), user_agent: navigator.userAgent.slice(0, 512) },
        });
        setStep({ kind: 'device', preAuthToken, teamId });
        return;
      }
      if (code === 'concurrent_login_pending') {
        setStep({ kind: 'concurrent', preAuthToken, teamId });
        return;
      }
      throw error;
    }
    await finish();
  };

  const credentials = useApiForm({
    submit: async (values) => {
      try {
        return await berth.browserAuth.login({
          body: { email: values.email ?? '', password: values.password ?? '', remember_me: values.remember_me === 'on' },
        });
      } catch (error) {
        if (error instanceof BerthError && typeof error.details.email === 'string') {
          setStep({ kind: 'unverified', email: error.details.email });
          return null;
        }
        throw error;
      }
    },
    onSuccess: async (reply) => {
      if (!reply) return;
      const active = reply.teams.filter((team) => team.status === 'ACTIVE');
      if (active.length === 1) await exchange(reply.pre_auth_token, active[0]!.team_id);
      else setStep({ kind: 'team', preAuthToken: reply.pre_auth_token, teams: reply.teams });
    },
  });

  if (step.kind === 'unverified') return <UnverifiedEmail email={step.email} />;
  if (step.kind === 'team') return <TeamPick teams={step.teams} pick={(teamId) => exchange(step.preAuthToken, teamId)} />;
  if (step.kind === 'device') return <DeviceCode preAuthToken={step.preAuthToken} approved={() => exchange(step.preAuthToken, step.teamId)} />;
  if (step.kind === 'concurrent') return <ConcurrentWait retry={() => exchange(step.preAuthToken, step.teamId)} />;
  if (step.kind === 'second-factor') return <SecondFactor done={finish} />;
  return (
    <AuthFrame
      title="Sign in"
      footer={
        <>
          <Link href="/register">Create an account</Link> · <Link href="/reset-password">Forgot your password?</Link>
        </>
      }
    >
      <Form form={credentials} submitLabel="Sign in">
        <TextField name="email" label="E-mail" type="email" autoComplete="username" required error={credentials.error('email')} />
        <TextField name="password" label="Password" type="password" autoComplete="current-password" required error={credentials.error('password')} />
        <CheckboxField name="remember_me" label="Keep me signed in for 7 days" />
      </Form>
    </AuthFrame>
  );
}

function UnverifiedEmail({ email }: { email: string }) {
  const resend = useApiForm({ submit: () => berth.browserAuth.requestEmailVerification({ body: { email } }) });
  return (
    <AuthFrame title="Verify your e-mail first">
      <p>
        We sent a link to <strong>{email}</strong>. Open it, then sign in again.
      </p>
      {resend.mutation.isSuccess ? <Notice tone="success">A new link is on its way.</Notice> : null}
      <Form form={resend} submitLabel="Send the link again" secondary={<a href="/sign-in">Back to sign-in</a>}>
        {null}
      </Form>
    </AuthFrame>
  );
}

function TeamPick({ teams, pick }: { teams: Team[]; pick: (teamId: number) => Promise<void> }) {
  const form = useApiForm({ submit: (values) => pick(Number(values.team_id)) });
  return (
    <AuthFrame title="Choose a team">
      <Form form={form} submitLabel="Continue">
        <fieldset className="choices">
          <legend>Teams you belong to</legend>
          {teams.map((team, index) => (
            <label key={team.team_id} className="choice">
              <input type="radio" name="team_id" value={team.team_id} defaultChecked={index === 0} disabled={team.status !== 'ACTIVE'} />
              {team.team_name}{' '}
              <small className="muted">
                ({team.role_name.toLowerCase()}
                {team.status !== 'ACTIVE' ? ', suspended' : ''})
              </small>
            </label>
          ))}
        </fieldset>
      </Form>
    </AuthFrame>
  );
}

function DeviceCode({ preAuthToken, approved }: { preAuthToken: string; approved: () => Promise<void> }) {
  const form = useApiForm({
    submit: async (values) => {
      await berth.browserAuth.approveDevice({
        body: { pre_auth_token: preAuthToken, device_fingerprint: deviceFingerprint(), otp_code: (values.otp_code ?? '').trim() },
      });
      await approved();
    },
  });
  return (
    <AuthFrame title="Confirm this device">
      <p>This is the first sign-in from this browser. We e-mailed you a 6-digit code.</p>
      <Form form={form} submitLabel="Confirm">
        <TextField
          name="otp_code"
          label="Code from the e-mail"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\d{6}"
          maxLength={6}
          required
          error={form.error('otp_code')}
        />
      </Form>
    </AuthFrame>
  );
}

function ConcurrentWait({ retry }: { retry: () => Promise<void> }) {
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    const timer = setInterval(() => {
      retry().catch((error: unknown) => {
        if (error instanceof BerthError && error.code === 'concurrent_login_pending') return;
        clearInterval(timer);
        setFailure(error);
      });
    }, CONCURRENT_POLL_MS);
    return () => clearInterval(timer);
  }, [retry]);
  const denied = failure instanceof BerthError && failure.code === 'concurrent_login_denied';
  return (
    <AuthFrame title={denied ? 'Sign-in denied' : 'Waiting for approval'}>
      {denied ? (
        <Notice tone="warning">Your other session denied this sign-in.</Notice>
      ) : failure ? (
        <Notice tone="warning">{failure instanceof Error ? failure.message : String(failure)}</Notice>
      ) : (
        <p role="status">
          You are signed in elsewhere. Approve this sign-in from that session (or from the link we e-mailed you); this page continues by itself.
        </p>
      )}
      <p>
        <a href="/sign-in">Start again</a>
      </p>
    </AuthFrame>
  );
}

function SecondFactor({ done }: { done: () => Promise<void> }) {
  const [backup, setBackup] = useState(false);
  const form = useApiForm({
    submit: async (values) => {
      if (backup) await berth.browserAuth.useBackupCode({ body: { backup_code: (values.code ?? '').trim() } });
      else await berth.browserAuth.verifyTotp({ body: { totp_code: (values.code ?? '').trim() } });
      await done();
    },
  });
  return (
    <AuthFrame title="Two-factor authentication">
      <Form
        form={form}
        submitLabel="Verify"
        secondary={
          <button type="button" className="button button-link" onClick={() => setBackup(!backup)}>
            {backup ? 'Use the authenticator app' : 'Use a backup code'}
          </button>
        }
      >
        <TextField
          key={backup ? 'backup' : 'totp'}
          name="code"
          label={backup ? 'Backup code' : '6-digit code from your authenticator app'}
          autoComplete="one-time-code"
          inputMode={backup ? 'text' : 'numeric'}
          required
          error={form.error(backup ? 'backup_code' : 'totp_code')}
        />
      </Form>
    </AuthFrame>
  );
}
