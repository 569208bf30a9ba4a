import { berth } from '../api/berth.ts';

/**
 * An EventSource that never gives up silently. The browser reconnects a dropped stream by itself,
 * sending Last-Event-ID; when the server closed it for good (an error answer, a proxy) or the tab
 * slept, this opens it again with `last_event_id` in the query (EventSource cannot set headers), so
 * no event is lost and none is seen twice. `end` (the operation finished) closes it for good.
 */
export type StreamHandlers = {
  onEvent: (type: string, data: unknown, id: string) => void;
  onState?: (state: 'connecting' | 'open' | 'reconnecting' | 'ended') => void;
};

const REOPEN_AFTER_MS = 3000;

export function openResumableStream(path: string, types: readonly string[], handlers: StreamHandlers): () => void {
  let lastId: string | null = null;
  let source: EventSource | null = null;
  let reopenTimer: ReturnType<typeof setTimeout> | undefined;
  let ended = false;

  const open = () => {
    if (ended) return;
    const url = new URL(path, window.location.origin);
    if (lastId) url.searchParams.set('last_event_id', lastId);
    source = new EventSource(url, { withCredentials: true });
    handlers.onState?.('connecting');
    source.onopen = () => handlers.onState?.('open');
    source.onerror = () => {
      if (!source || source.readyState !== EventSource.CLOSED) {
        handlers.onState?.('reconnecting');
        return;
      }
      // closed for good by the browser: open again ourselves, from the last event seen
      handlers.onState?.('reconnecting');
      clearTimeout(reopenTimer);
      reopenTimer = setTimeout(reopen, REOPEN_AFTER_MS);
    };
    for (const type of types) {
      source.addEventListener(type, (event) => {
        const message = event as MessageEvent<string>;
        // a replayed event after a reconnect through another path is never applied twice
        if (message.lastEventId && lastId && BigInt(message.lastEventId) <= BigInt(lastId)) return;
        if (message.lastEventId) lastId = message.lastEventId;
        handlers.onEvent(type, message.data ? JSON.parse(message.data) : null, message.lastEventId);
      });
    }
    source.addEventListener('end', () => {
      ended = true;
      source?.close();
      handlers.onState?.('ended');
    });
  };

  // A stream refused with 401 (the access cookie expired) cannot renew the session itself: one API
  // call through the panel's fetch does (or, signed out, sends the page to sign-in), then it reopens.
  const reopen = () => {
    void berth.me
      .get()
      .catch(() => undefined)
      .finally(open);
  };

  const onVisible = () => {
    if (document.visibilityState === 'visible' && !ended && source?.readyState === EventSource.CLOSED) {
      clearTimeout(reopenTimer);
      reopen();
    }
  };
  document.addEventListener('visibilitychange', onVisible);
  open();
  return () => {
    ended = true;
    clearTimeout(reopenTimer);
    document.removeEventListener('visibilitychange', onVisible);
    source?.close();
  };
}
