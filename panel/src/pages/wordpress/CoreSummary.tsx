import { useMutation, useQuery } from '@tanstack/react-query';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { formatDate } from '../backups/format.ts';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';

/** What WordPress runs, as a worker last read it; "read again" for changes made in wp-admin or over SFTP. */
export function CoreSummary({ onStarted }: { onStarted: (operationId: string, title: string) => void }) {
  const { siteId, env } = useEnvironmentParams();
  const wordpress = useQuery({ queryKey: ['wordpress', siteId, env], queryFn: () => berth.wordpress.get({ id: siteId, env }) });
  const refresh = useMutation({
    mutationFn: () => berth.wordpress.refresh({ id: siteId, env }),
    onSuccess: (accepted) => onStarted(accepted.operation.id, 'Reading WordPress again'),
  });
  const data = wordpress.data;
  return (
    <Section
      title="WordPress"
      actions={
        <button type="button" className="button" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
          {refresh.isPending ? 'Reading…' : 'Read again'}
        </button>
      }
    >
      {wordpress.isPending ? <Loading label="Loading WordPress" /> : null}
      <ErrorNotice error={wordpress.error ?? refresh.error} />
      {data === null ? <p>Not read yet: Berth reads it after the next operation on this environment, or choose “Read again”.</p> : null}
      {data ? (
        <dl className="details">
          <dt>Version</dt>
          <dd>WordPress {data.version}</dd>
          <dt>Title</dt>
          <dd>{data.blogname}</dd>
          <dt>Address</dt>
          <dd>{data.home}</dd>
          <dt>PHP</dt>
          <dd>{data.php_version}</dd>
          <dt>MySQL</dt>
          <dd>{data.mysql_version}</dd>
          <dt>Language</dt>
          <dd>{data.locale}</dd>
          <dt>Read</dt>
          <dd>{formatDate(data.checked_at)}</dd>
        </dl>
      ) : null}
    </Section>
  );
}
