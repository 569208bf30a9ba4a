import { Link } from 'wouter';
import { Page } from '../components/Page.tsx';

export function NotFoundPage() {
  return (
    <Page title="Not found">
      <p>There is nothing here, or it belongs to a team you are not signed in to.</p>
      <p>
        <Link href="/">Back to your sites</Link>
      </p>
    </Page>
  );
}
