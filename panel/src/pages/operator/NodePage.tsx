import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { CheckboxField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { OperationProgress } from '../../live/OperationProgress.tsx';
import { bytes } from '../billing/format.ts';
import { age, usage } from './node-format.ts';
import { SshFields, sshFrom } from './SshFields.tsx';
import type { Node, NodeStatus } from './types.ts';

/** The status moves the API allows from each status (others answer 409). */
const moves: Record<NodeStatus, { to: 'online' | 'draining' | 'disabled'; label: string }[]> = {
  online: [
    { to: 'draining', label: 'Drain (no new sites)' },
    { to: 'disabled', label: 'Disable' },
  ],
  draining: [
    { to: 'online', label: 'Back online' },
    { to: 'disabled', label: 'Disable' },
  ],
  offline: [{ to: 'disabled', label: 'Disable' }],
  disabled: [{ to: 'online', label: 'Enable' }],
  enrolling: [{ to: 'disabled', label: 'Disable' }],
  failed: [{ to: 'disabled', label: 'Disable' }],
};

/** One node: health, facts, SSH and SFTP keys, capacity, its enrollment (live), status moves, enrolling again, deleting. */
export default function NodePage() {
  const { id } = useParams<{ id: string }>();
  const node = useQuery({ queryKey: ['nodes', 'one', id], queryFn: () => berth.nodes.get({ id }), refetchInterval: 15_000 });
  const [operationId, setOperationId] = useState<string | null>(null);
  const data = node.data;
  const enrollment = operationId ?? (data?.enrollment && data.status !== 'online' ? data.enrollment.operation_id : null);
  return (
    <Page title={data ? `Node ${data.name}` : 'Node'} back={{ href: '/operator/nodes', label: 'Nodes' }}>
      {node.isPending ? <Loading label="Loading the node" /> : null}
      <ErrorNotice error={node.error} />
      {data ? (
        <>
          <p>
            <StatusBadge status={data.status} /> <span className="muted">last heartbeat {age(data.last_heartbeat_at)}</span>
          </p>
          {enrollment ? (
            <Section title="Enrollment">
              <OperationProgress id={enrollment} title="Enrollment" />
            </Section>
          ) : null}
          <Health node={data} />
          <StatusMoves node={data} />
          {data.status === 'failed' || data.status === 'enrolling' ? <EnrollAgain node={data} onStarted={setOperationId} /> : null}
          <EditNode node={data} />
          <DeleteNode node={data} />
        </>
      ) : null}
    </Page>
  );
}

function Health({ node }: { node: Node }) {
  const metrics = node.metrics;
  return (
    <Section title="Health">
      <dl className="details">
        <dt>Region</dt>
        <dd>{node.region}</dd>
        <dt>Public address</dt>
        <dd>{node.public_address}</dd>
        <dt>CPU</dt>
        <dd>{metrics ? `${metrics.cpu_percent.toFixed(0)} % (load ${metrics.load_average.map((load) => load.toFixed(2)).join(' ')})` : '—'}</dd>
        <dt>Memory</dt>
        <dd>{metrics ? usage(metrics.memory.used_bytes, metrics.memory.total_bytes) : '—'}</dd>
        <dt>Disk</dt>
        <dd>{metrics ? `${usage(metrics.disk.used_bytes, metrics.disk.total_bytes)} on ${metrics.disk.path}` : '—'}</dd>
        <dt>Containers</dt>
        <dd>{metrics ? `${metrics.containers.running} running of ${metrics.containers.total}` : '—'}</dd>
        <dt>Sites</dt>
        <dd>
          {node.hosts.sites}
          {node.capacity.max_sites !== undefined ? ` of at most ${node.capacity.max_sites}` : ''}
          {node.capacity.disk_bytes !== undefined ? `, ${bytes(node.capacity.disk_bytes)} disk for sites` : ''}
        </dd>
        <dt>System</dt>
        <dd>{node.facts ? `${node.facts.os}, ${node.facts.arch}, Docker ${node.facts.docker.version} (${node.facts.hostname})` : '—'}</dd>
        <dt>Agent</dt>
        <dd>
          {node.agent_version ?? '—'}
          {node.protocol_version !== null ? ` (protocol ${node.protocol_version})` : ''}
        </dd>
        <dt>SSH</dt>
        <dd>
          {node.ssh.user}@{node.ssh.host}:{node.ssh.port} {node.ssh.host_key_sha256 ? <code>{node.ssh.host_key_sha256}</code> : null}
          {node.ssh.credentials_stored ? ' (credentials stored until enrolled)' : ''}
        </dd>
        {node.sftp ? (
          <>
            <dt>SFTP host key</dt>
            <dd>
              port {node.sftp.port}, <code>{node.sftp.host_key_fingerprint}</code>
            </dd>
          </>
        ) : null}
        <dt>Enrolled</dt>
        <dd>{node.enrolled_at ? new Date(node.enrolled_at).toLocaleString() : 'not yet'}</dd>
      </dl>
      {node.enrollment?.error ? (
        <div className="notice notice-error" role="alert">
          Enrollment failed{node.enrollment.error.step ? ` at “${node.enrollment.error.step}”` : ''}: {node.enrollment.error.message}{' '}
          <Link href={`/operations/${node.enrollment.operation_id}`}>Its operation</Link>
        </div>
      ) : null}
    </Section>
  );
}

function StatusMoves({ node }: { node: Node }) {
  const queryClient = useQueryClient();
  const [disabling, setDisabling] = useState(false);
  const move = useMutation({
    mutationFn: (status: 'online' | 'draining' | 'disabled') => berth.nodes.update({ id: node.id, body: { status } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['nodes'] });
      setDisabling(false);
    },
  });
  const allowed = moves[node.status];
  return (
    <Section title="Status">
      <div className="button-row">
        {allowed.map((option) => (
          <button
            key={option.to}
            type="button"
            className={option.to === 'disabled' ? 'button button-danger' : 'button'}
            onClick={() => (option.to === 'disabled' ? setDisabling(true) : move.mutate(option.to))}
            disabled={move.isPending}
          >
            {option.label}
          </button>
        ))}
      </div>
      <ErrorNotice error={move.error} />
      <ConfirmDialog
        open={disabling}
        title={`Disable ${node.name}?`}
        confirmLabel="Disable node"
        pending={move.isPending}
        onConfirm={() => move.mutate('disabled')}
        onCancel={() => setDisabling(false)}
      >
        <p>Its agent is refused from its next request on: the sites on it stop being managed until it is enabled again.</p>
        <ErrorNotice error={move.error} />
      </ConfirmDialog>
    </Section>
  );
}

function EnrollAgain({ node, onStarted }: { node: Node; onStarted: (operationId: string) => void }) {
  const form = useApiForm({
    submit: (values) => berth.nodes.enroll({ id: node.id, body: values.new_ssh === 'on' ? { ssh: sshFrom(values) } : {} }),
    invalidates: [['nodes']],
    onSuccess: (started) => onStarted(started.id),
  });
  return (
    <Section title="Enroll again">
      <Form form={form} submitLabel="Enroll again">
        <CheckboxField
          name="new_ssh"
          label="Use new SSH details"
          hint={node.ssh.credentials_stored ? 'Unticked: the stored credentials are used.' : 'No credentials are stored: give new ones.'}
          defaultChecked={!node.ssh.credentials_stored}
        />
        <SshFields error={form.error} required={false} />
      </Form>
    </Section>
  );
}

function EditNode({ node }: { node: Node }) {
  const form = useApiForm({
    submit: (values) =>
      berth.nodes.update({
        id: node.id,
        body: {
          name: values.name ?? node.name,
          region: values.region ?? node.region,
          public_address: values.public_address ?? node.public_address,
          capacity: {
            ...(values.max_sites ? { max_sites: Number(values.max_sites) } : {}),
            ...(values.disk_gib ? { disk_bytes: Math.round(Number(values.disk_gib) * 1024 ** 3) } : {}),
          },
        },
      }),
    invalidates: [['nodes']],
  });
  return (
    <Section title="Settings">
      <Form form={form} submitLabel="Save node">
        <TextField name="name" label="Name" defaultValue={node.name} error={form.error('name')} />
        <TextField name="region" label="Region" defaultValue={node.region} error={form.error('region')} />
        <TextField name="public_address" label="Public address" defaultValue={node.public_address} error={form.error('public_address')} />
        <TextField
          name="max_sites"
          label="Most site environments"
          type="number"
          min={0}
          defaultValue={node.capacity.max_sites}
          error={form.error('capacity.max_sites')}
        />
        <TextField
          name="disk_gib"
          label="Disk for sites (GiB)"
          type="number"
          min={0}
          defaultValue={node.capacity.disk_bytes !== undefined ? node.capacity.disk_bytes / 1024 ** 3 : undefined}
          hint="Empty: no limit. Capacity is replaced as a whole."
          error={form.error('capacity.disk_bytes')}
        />
      </Form>
    </Section>
  );
}

function DeleteNode({ node }: { node: Node }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => berth.nodes.delete({ id: node.id }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['nodes'] });
      navigate('/operator/nodes');
    },
  });
  return (
    <Section title="Delete">
      <button type="button" className="button button-danger" onClick={() => setOpen(true)} disabled={node.hosts.sites > 0}>
        Delete node
      </button>
      {node.hosts.sites > 0 ? <p className="muted">Only a node that holds no site can be deleted.</p> : null}
      <ConfirmDialog
        open={open}
        title={`Delete ${node.name}?`}
        confirmLabel="Delete node"
        typeToConfirm={node.name}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setOpen(false)}
      >
        <p>Its agent is refused from then on; it is not uninstalled from the host.</p>
        <ErrorNotice error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
