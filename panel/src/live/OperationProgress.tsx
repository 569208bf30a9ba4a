import { useMutation } from '@tanstack/react-query';
import { berth } from '../api/berth.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { Loading } from '../components/Loading.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { LogView } from './LogView.tsx';
import { TERMINAL, useOperation } from './use-operation.ts';

/**
 * An operation as it happens: status, progress, each step, why it waits when it is queued, the
 * failing step and its reason when it failed, and its log, all pushed by the API.
 */
export function OperationProgress({ id, title }: { id: string; title?: string }) {
  const { query, operation, logs, logVersion, connection } = useOperation(id);
  const cancel = useMutation({ mutationFn: () => berth.operations.cancel({ id }) });
  if (query.isPending) return <Loading label="Loading the operation" />;
  if (query.isError) return <ErrorNotice error={query.error} />;
  if (!operation) return null;
  const waiting = operation.waiting;
  const done = TERMINAL.has(operation.status);
  return (
    <div className="operation" data-operation-id={operation.id} data-status={operation.status}>
      <div className="operation-head">
        <strong>{title ?? operation.kind}</strong> <StatusBadge status={operation.status} />
        {!done && connection === 'reconnecting' ? <small className="muted"> reconnecting…</small> : null}
      </div>
      <progress max={100} value={operation.progress} aria-label={`${title ?? operation.kind} progress`}>
        {operation.progress}%
      </progress>
      {operation.status === 'queued' ? (
        <p className="muted" role="status">
          Waiting: {waiting?.message ?? 'in the queue'}
        </p>
      ) : null}
      {operation.error ? (
        <div className="notice notice-error" role="alert">
          <strong>Failed{operation.error.step ? ` at step “${operation.error.step}”` : ''}:</strong> {operation.error.message}
          {operation.error.stderr_tail ? <pre className="stderr">{operation.error.stderr_tail}</pre> : null}
        </div>
      ) : null}
      <ol className="steps" aria-label="Steps">
        {operation.steps.map((step) => (
          <li key={step.name} className={`step step-${step.status}`}>
            <StatusBadge status={step.status} /> {step.name.replace(/_/g, ' ')}
            {step.attempts > 1 ? <small className="muted"> (attempt {step.attempts})</small> : null}
          </li>
        ))}
      </ol>
      <details className="operation-log" open={!done || operation.status === 'failed'}>
        <summary>Log ({logs.length} lines)</summary>
        <LogView lines={logs} version={logVersion} label={`Log of ${title ?? operation.kind}`} />
      </details>
      {!done && operation.steps.some((step) => step.status === 'running' && step.cancellable) ? (
        <button type="button" className="button" onClick={() => cancel.mutate()} disabled={cancel.isPending || Boolean(operation.cancel_requested_at)}>
          {operation.cancel_requested_at ? 'Cancelling…' : 'Cancel'}
        </button>
      ) : null}
      <ErrorNotice error={cancel.error} />
    </div>
  );
}
