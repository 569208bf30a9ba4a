import { Page } from '../../components/Page.tsx';
import { LoginActivity } from './LoginActivity.tsx';
import { PendingSignIns } from './PendingSignIns.tsx';
import { Sessions } from './Sessions.tsx';
import { TotpSetup } from './TotpSetup.tsx';
import { TrustedDevices } from './TrustedDevices.tsx';

/** How you sign in and where you are signed in: 2FA, waiting sign-ins, sessions, devices, history. */
export default function SecurityPage() {
  return (
    <Page title="Security" back={{ href: '/account', label: 'Profile' }}>
      <TotpSetup />
      <PendingSignIns />
      <Sessions />
      <TrustedDevices />
      <LoginActivity />
    </Page>
  );
}
