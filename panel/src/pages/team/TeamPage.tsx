import { Link } from 'wouter';
import { can, useMe } from '../../app/session.tsx';
import { Page } from '../../components/Page.tsx';
import { Invites } from './Invites.tsx';
import { LeaveTeam } from './LeaveTeam.tsx';
import { Members } from './Members.tsx';
import { TeamSettings } from './TeamSettings.tsx';

/** The team the session acts in: its settings, its members and its invites. */
export default function TeamPage() {
  const me = useMe();
  return (
    <Page
      title={me.team_name}
      actions={
        <>
          <Link href="/team/roles" className="button">
            Roles
          </Link>
          <Link href="/team/activity" className="button">
            Activity
          </Link>
        </>
      }
    >
      <p className="muted">You are {me.role_name} here.</p>
      <TeamSettings />
      {can(me, 'members:read') ? <Members /> : <LeaveTeam />}
      {can(me, 'invites:read') ? <Invites /> : null}
    </Page>
  );
}
