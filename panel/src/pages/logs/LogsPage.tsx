import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { openResumableStream } from '../../live/resumable-stream.ts';
import { EnvironmentFrame, useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';

type LogFile = 'access' | 'error' | 'php';
type Line = { id: number; time: string; line: string };

const FILES: Array<{ value: LogFile; label: string }> = [
  { value: 'access', label: 'Access' },
  { value: 'error', label: 'Edge errors' },
  { value: 'php', label: 'PHP' },
];
/** The most live lines kept on screen; older ones are in the pages below. */
const LIVE_KEPT = 500;

/** An environment's logs (docs/api/logs.md): a page of lines newest first, older pages, a search and a live tail. */
export default function LogsPage() {
  return <EnvironmentFrame title="Logs">{() => <Logs />}</EnvironmentFrame>;
}

function Logs() {
  const { siteId, env } = useEnvironmentParams();
  const [file, setFile] = useState<LogFile>('access');
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [live, setLive] = useState(false);
  const [liveLines, setLiveLines] = useState<Line[]>([]);
  const [liveState, setLiveState] = useState<string>('');
  const pages = useInfiniteQuery({
    queryKey: ['environment-logs', siteId, env, file, search],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      berth.environments.logs({ id: siteId, env, file, lines: 100, ...(search ? { search } : {}), ...(pageParam ? { cursor: pageParam } : {}) }),
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });

  useEffect(() => {
    setLiveLines([]);
    if (!live) return;
    const path = `/v1/sites/${siteId}/environments/${encodeURIComponent(env)}/logs/stream?file=${file}`;
    return openResumableStream(path, ['line'], {
      onEvent: (_type, data) => {
        const line = data as Line;
        if (search && !line.line.toLowerCase().includes(search.toLowerCase())) return;
        setLiveLines((lines) => [line, ...lines].slice(0, LIVE_KEPT));
      },
      onState: setLiveState,
    });
  }, [live, siteId, env, file, search]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
  };
  const lines = [...liveLines, ...(pages.data?.pages.flatMap((page) => page.lines) ?? [])];
  return (
    <Section title="Logs">
      <form className="filters" onSubmit={submit}>
        <label>
          Log{' '}
          <select value={file} onChange={(event) => setFile(event.target.value as LogFile)}>
            {FILES.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Containing <input type="search" value={draft} maxLength={200} onChange={(event) => setDraft(event.target.value)} />
        </label>{' '}
        <button type="submit">Search</button>{' '}
        <label>
          <input type="checkbox" checked={live} onChange={(event) => setLive(event.target.checked)} /> Live
        </label>{' '}
        {live && liveState ? <span className="muted">{liveState}</span> : null}
      </form>
      <p className="muted">Newest first. Lines arrive within seconds and are kept 7 days (at most 100,000 per log).</p>
      {pages.isPending ? <Loading label="Loading the log" /> : null}
      <ErrorNotice error={pages.error} />
      {pages.data && lines.length === 0 ? <p>No lines{search ? ` containing “${search}”` : ''}.</p> : null}
      {lines.length > 0 ? (
        <pre className="log-view" aria-label={`${file} log`}>
          {lines.map((line) => `${line.time}  ${line.line}`).join('\n')}
        </pre>
      ) : null}
      {pages.hasNextPage ? (
        <button type="button" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Older lines'}
        </button>
      ) : null}
    </Section>
  );
}
