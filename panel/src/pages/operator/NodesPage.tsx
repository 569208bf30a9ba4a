import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { berth } from '../../api/berth.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { Pager } from '../../components/Pager.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { age, usage } from './node-format.ts';
import { SshFields, sshFrom } from './SshFields.tsx';
import type { Node, NodeStatus } from './types.ts';

const statuses: ('' | NodeStatus)[] = ['', 'enrolling', 'online', 'offline', 'draining', 'disabled', 'failed'];

/** Every node with its health as its heartbeats report it, and adding one (enrolled over SSH, live). */
export default function NodesPage() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<'' | NodeStatus>('');
  const nodes = useQuery({
    queryKey: ['nodes', status, page],
    queryFn: () => berth.nodes.list({ page, page_size: 25, ...(status ? { status } : {}) }),
    // heartbeats come every few seconds and raise no team event: read them again now and then
    refetchInterval: 30_000,
  });
  return (
    <Page title="Nodes">
      <div className="filters">
        <SelectField
          name="status"
          label="Status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as '' | NodeStatus);
            setPage(1);
          }}
          options={statuses.map((value) => ({ value, label: value || 'all' }))}
        />
      </div>
      {nodes.isPending ? <Loading label="Loading nodes" /> : null}
      <ErrorNotice error={nodes.error} />
      {nodes.data ? (
        <>
          <DataTable<Node>
            caption="Nodes"
            rows={nodes.data.data}
            rowKey={(node) => node.id}
            empty="No nodes yet."
            columns={[
              { header: 'Name', cell: (node) => <Link href={`/operator/nodes/${node.id}`}>{node.name}</Link> },
              { header: 'Status', cell: (node) => <StatusBadge status={node.status} /> },
              { header: 'Region', cell: (node) => node.region },
              { header: 'Last heartbeat', cell: (node) => age(node.last_heartbeat_at) },
              { header: 'CPU', cell: (node) => (node.metrics ? `${node.metrics.cpu_percent.toFixed(0)} %` : '—'), className: 'numeric' },
              { header: 'Memory', cell: (node) => (node.metrics ? usage(node.metrics.memory.used_bytes, node.metrics.memory.total_bytes) : '—') },
              { header: 'Disk', cell: (node) => (node.metrics ? usage(node.metrics.disk.used_bytes, node.metrics.disk.total_bytes) : '—') },
              {
                header: 'Sites',
                cell: (node) => `${node.hosts.sites}${node.capacity.max_sites !== undefined ? ` / ${node.capacity.max_sites}` : ''}`,
                className: 'numeric',
              },
              { header: 'Agent', cell: (node) => node.agent_version ?? '—' },
            ]}
          />
          <Pager page={page} totalPages={nodes.data.pagination.total_pages} onPage={setPage} />
        </>
      ) : null}
      <AddNode />
    </Page>
  );
}

function AddNode() {
  const [operation, setOperation] = useState<{ id: string; nodeId: string } | null>(null);
  const form = useApiForm({
    submit: (values) =>
      berth.nodes.create({
        body: {
          name: values.name ?? '',
          region: values.region ?? '',
          public_address: values.public_address ?? '',
          ssh: sshFrom(values),
          ...(values.max_sites ? { capacity: { max_sites: Number(values.max_sites) } } : {}),
        },
      }),
    invalidates: [['nodes']],
    onSuccess: (started) => setOperation({ id: started.id, nodeId: started.target.id }),
  });
  return (
    <Section title="Add a node">
      {operation ? (
        <>
          <OperationProgress id={operation.id} title="Enrollment" />
          <p>
            <Link href={`/operator/nodes/${operation.nodeId}`}>Open the node</Link>
          </p>
        </>
      ) : null}
      <Form form={form} submitLabel="Add and enroll node">
        <TextField name="name" label="Name" required placeholder="fsn1-node-04" hint="Lower-case letters, digits and dashes." error={form.error('name')} />
        <TextField name="region" label="Region" required placeholder="eu-central" error={form.error('region')} />
        <TextField
          name="public_address"
          label="Public address"
          required
          hint="The IP address or host name sites' DNS points at."
          error={form.error('public_address')}
        />
        <TextField name="max_sites" label="Most site environments (optional)" type="number" min={0} error={form.error('capacity.max_sites')} />
        <SshFields error={form.error} />
      </Form>
    </Section>
  );
}
