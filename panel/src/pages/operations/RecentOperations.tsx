import { useQueries } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Operation } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';

/** The latest operations on the given targets (a site and its environments), newest first. */
export function RecentOperations({ targets, limit = 10 }: { targets: { type: string; id: string }[]; limit?: number }) {
  const lists = useQueries({
    queries: targets.map((target) => ({
      queryKey: ['operations', target.type, target.id],
      queryFn: () => berth.operations.list({ target_type: target.type, target_id: target.id, page_size: limit }),
    })),
  });
  const rows = lists
    .flatMap((list) => list.data?.data ?? [])
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .slice(0, limit);
  return (
    <>
      <ErrorNotice error={lists.find((list) => list.error)?.error} />
      <OperationsTable operations={rows} />
    </>
  );
}

export function OperationsTable({ operations }: { operations: Operation[] }) {
  return (
    <DataTable<Operation>
      caption="Operations"
      rows={operations}
      rowKey={(operation) => operation.id}
      empty="No operations yet."
      columns={[
        { header: 'Operation', cell: (operation) => <Link href={`/operations/${operation.id}`}>{operation.kind}</Link> },
        { header: 'Status', cell: (operation) => <StatusBadge status={operation.status} /> },
        { header: 'Progress', cell: (operation) => `${operation.progress}%` },
        { header: 'Started', cell: (operation) => new Date(operation.created_at).toLocaleString() },
        { header: 'Failed at', cell: (operation) => (operation.error ? `${operation.error.step ?? '—'}: ${operation.error.message}` : '') },
      ]}
    />
  );
}
