import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { OperationDetail } from '@berth/sdk';
import { berth } from '../api/berth.ts';
import { openResumableStream } from './resumable-stream.ts';

export type LogLine = { step: string | null; stream: string; line: string; created_at: string };
type StepEvent = {
  name: string;
  status: OperationDetail['steps'][number]['status'];
  attempts?: number;
  started_at?: string | null;
  finished_at?: string | null;
};

export const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * One operation, live: its state from GET /v1/operations/{id}, then every change pushed by its event
 * stream (GET /v1/operations/{id}/events). Log lines are kept in a plain array (a long log is 100k
 * lines; React state would copy it on every line) and the view is told through `logVersion`.
 */
export function useOperation(id: string) {
  const queryClient = useQueryClient();
  const [connection, setConnection] = useState<'connecting' | 'open' | 'reconnecting' | 'ended'>('connecting');
  const query = useQuery({
    queryKey: ['operation', id],
    queryFn: () => berth.operations.get({ id }) as Promise<OperationDetail>,
    // while the stream is down (a proxy that buffers, a server being replaced) the state is read every 2 s
    refetchInterval: (cached) => (connection !== 'open' && !TERMINAL.has(cached.state.data?.status ?? '') ? 2000 : false),
  });
  const lines = useRef<LogLine[]>([]);
  const [logVersion, setLogVersion] = useState(0);
  const [streamedLogs, setStreamedLogs] = useState(false);

  useEffect(() => {
    lines.current = [];
    let frame = 0;
    const redraw = () => {
      frame = 0;
      setLogVersion((version) => version + 1);
    };
    const close = openResumableStream(`/v1/operations/${encodeURIComponent(id)}/events`, ['operation', 'step', 'log'], {
      onState: setConnection,
      onEvent: (type, data) => {
        if (type === 'log') {
          lines.current.push(data as LogLine);
          setStreamedLogs(true);
          // many lines a frame are drawn once
          frame ||= requestAnimationFrame(redraw);
          return;
        }
        queryClient.setQueryData<OperationDetail>(['operation', id], (current) => {
          if (!current) return current;
          if (type === 'operation') return { ...current, ...(data as Partial<OperationDetail>), steps: current.steps, logs: current.logs };
          const step = data as StepEvent;
          return { ...current, steps: current.steps.map((existing) => (existing.name === step.name ? { ...existing, ...step } : existing)) };
        });
      },
    });
    return () => {
      cancelAnimationFrame(frame);
      close();
    };
  }, [id, queryClient]);

  // once it ends (pushed or read), what it worked on has changed: the lists showing it are read again
  const status = query.data?.status;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (status === undefined) return;
    if (!TERMINAL.has(status)) wasRunning.current = true;
    else if (wasRunning.current) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ predicate: (cached) => cached.queryKey[0] !== 'operation' });
    }
  }, [status, queryClient]);

  // events are kept 24 hours: an older operation shows the last lines GET answered
  const logs = streamedLogs ? lines.current : ((query.data?.logs as LogLine[] | undefined) ?? []);
  return { query, operation: query.data, logs, logVersion, connection };
}
