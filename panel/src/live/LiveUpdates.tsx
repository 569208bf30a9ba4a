import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { openResumableStream } from './resumable-stream.ts';

const SETTLE_MS = 500;

/**
 * The team's event stream (GET /v1/events): when any operation of the team moves, the cached lists
 * are read again, so a backup's or a site's status changes on screen without a reload. Changes that
 * arrive together are read once.
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const close = openResumableStream('/v1/events', ['operation'], {
      onEvent: () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'operation' && query.queryKey[0] !== 'me' }),
          SETTLE_MS,
        );
      },
    });
    return () => {
      clearTimeout(timer);
      close();
    };
  }, [queryClient]);
  return null;
}
