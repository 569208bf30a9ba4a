import { errorMessage, requestIdOf } from '../api/errors.ts';

/** A failed call, in the API's own words, with the request id to quote to support. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const requestId = requestIdOf(error);
  return (
    <div className="notice notice-error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      {errorMessage(error)}
      {requestId ? <small className="request-id"> (request {requestId})</small> : null}
    </div>
  );
}

export function Notice({ children, tone = 'info' }: { children: React.ReactNode; tone?: 'info' | 'success' | 'warning' }) {
  return (
    <div className={`notice notice-${tone}`} role={tone === 'warning' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
