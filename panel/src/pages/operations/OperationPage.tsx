import { useParams } from 'wouter';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { Page } from '../../components/Page.tsx';

/** One operation, live: the page an operation's link opens. */
export default function OperationPage() {
  const { id } = useParams<{ id: string }>();
  return (
    <Page title="Operation" back={{ href: '/operations', label: 'Operations' }}>
      <OperationProgress id={id} />
    </Page>
  );
}
