import { Link } from 'wouter';
import { useMe } from '../../app/session.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';

/** Who is signed in, in which team and role, and whether the second factor is on. */
export default function ProfilePage() {
  const me = useMe();
  return (
    <Page title="Profile">
      <Section title="You">
        <dl className="details">
          <dt>Name</dt>
          <dd>{me.user_name}</dd>
          <dt>E-mail</dt>
          <dd>{me.email}</dd>
          <dt>Team</dt>
          <dd>
            <Link href="/team">{me.team_name}</Link>
          </dd>
          <dt>Role</dt>
          <dd>{me.role_name}</dd>
          <dt>Two-factor authentication</dt>
          <dd>
            <StatusBadge status={me.two_factor_enabled ? 'enabled' : 'disabled'} />
          </dd>
        </dl>
        <p>
          {me.two_factor_enabled ? (
            <Link href="/account/security">Sessions, devices and sign-in activity</Link>
          ) : (
            <Link href="/account/security">Turn on two-factor authentication</Link>
          )}{' '}
          · <Link href="/account/api-tokens">API tokens</Link>
        </p>
      </Section>
    </Page>
  );
}
