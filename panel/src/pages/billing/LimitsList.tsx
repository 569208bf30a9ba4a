import { bytes } from './format.ts';
import type { Limits } from './types.ts';

/** A plan's (or the team's) limits as a definition list. */
export function LimitsList({ limits }: { limits: Limits }) {
  return (
    <dl className="details">
      <dt>Sites</dt>
      <dd>{limits.max_sites}</dd>
      <dt>Disk</dt>
      <dd>{bytes(limits.max_disk_bytes)}</dd>
      <dt>Memory per environment</dt>
      <dd>{bytes(limits.environment_memory_bytes)}</dd>
      <dt>CPU per environment</dt>
      <dd>{limits.environment_cpu_millicores / 1000} cores</dd>
      <dt>Scheduled backups kept</dt>
      <dd>{limits.backups_scheduled_keep}</dd>
      <dt>Manual backups kept</dt>
      <dd>{limits.backups_manual_keep}</dd>
    </dl>
  );
}
