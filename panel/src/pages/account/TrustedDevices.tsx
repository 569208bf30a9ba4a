import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DataTable } from '../../components/DataTable.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { formatPlace, formatTime } from './format.ts';

type Device = Awaited<ReturnType<typeof berth.browserAuth.listTrustedDevices>>['devices'][number];

/** Devices you approved with an e-mailed code; revoking one signs it out and asks for a code again next time. */
export function TrustedDevices() {
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState<Device | null>(null);
  const devices = useQuery({ queryKey: ['trusted-devices'], queryFn: () => berth.browserAuth.listTrustedDevices() });
  const revoke = useMutation({
    mutationFn: (device: Device) => berth.browserAuth.revokeTrustedDevice({ body: { device_id: device.id } }),
    onSuccess: async () => {
      setRevoking(null);
      await queryClient.invalidateQueries({ queryKey: ['trusted-devices'] });
      await queryClient.invalidateQueries({ queryKey: ['sessions'] });
    },
  });
  return (
    <Section title="Trusted devices">
      {devices.isPending ? <Loading label="Loading your devices" /> : null}
      <ErrorNotice error={devices.error} />
      {devices.data ? (
        <DataTable<Device>
          caption="Trusted devices"
          rows={devices.data.devices}
          rowKey={(device) => device.id}
          empty="No trusted device yet."
          columns={[
            { header: 'Device', cell: (device) => device.device_label },
            { header: 'Status', cell: (device) => <StatusBadge status={device.revoked_at ? 'revoked' : 'trusted'} /> },
            { header: 'Trusted since', cell: (device) => formatTime(device.trusted_at) },
            { header: 'Last seen', cell: (device) => `${formatTime(device.last_seen_at)} · ${formatPlace(device.last_ip)}` },
            {
              header: 'Actions',
              cell: (device) =>
                device.revoked_at ? (
                  <span className="muted">Revoked {formatTime(device.revoked_at)}</span>
                ) : (
                  <button type="button" className="button button-danger" onClick={() => setRevoking(device)}>
                    Revoke
                  </button>
                ),
            },
          ]}
        />
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.device_label ?? 'this device'}?`}
        confirmLabel="Revoke device"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onCancel={() => {
          setRevoking(null);
          revoke.reset();
        }}
      >
        <p>Every session on that device ends now (this one too, if it is this device), and its next sign-in needs an e-mailed code again.</p>
        <ErrorNotice error={revoke.error} />
      </ConfirmDialog>
    </Section>
  );
}
