const tones: Record<string, string> = {
  active: 'good',
  succeeded: 'good',
  ready: 'good',
  online: 'good',
  paid: 'good',
  issued: 'good',
  verified: 'good',
  enabled: 'good',
  healthy: 'good',
  queued: 'wait',
  pending: 'wait',
  running: 'busy',
  creating: 'busy',
  provisioning: 'busy',
  deleting: 'busy',
  restoring: 'busy',
  issuing: 'busy',
  failed: 'bad',
  error: 'bad',
  offline: 'bad',
  cancelled: 'muted',
  deleted: 'muted',
  disabled: 'muted',
  void: 'muted',
  open: 'wait',
  degraded: 'bad',
  suspended: 'bad',
};

/** A status word with a colour that never carries the meaning alone (the word is always there). */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${tones[status.toLowerCase()] ?? 'muted'}`}>{status.replace(/_/g, ' ')}</span>;
}
