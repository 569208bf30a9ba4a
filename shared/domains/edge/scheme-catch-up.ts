import type { Operation } from '../../db/models.ts';
import { startOperations, type OperationDeps } from '../operations/operations.ts';
import { environmentKey } from '../sites/sites.ts';
import { httpsState } from './edge-settings.ts';

/**
 * Environments whose WordPress should be on https but is not: an installed certificate covers the
 * address and HTTPS is forced (the default), yet their URLs are http — certificates installed before
 * forcing existed, or an operation that failed half-way. The daily certificate sweep starts one
 * `environment.edge` for each, unless an edge or certificate operation is already queued or running.
 */
export async function startSchemeCatchUps(deps: OperationDeps): Promise<Operation[]> {
  return deps.db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', ['edge.scheme-catch-up']);
    const rows = (await trx('environments as e')
      .join('nodes as n', 'n.id', 'e.node_id')
      .join('certificates as c', 'c.environment_id', 'e.id')
      .where({ 'e.status': 'active', 'e.url_scheme': 'http', 'c.status': 'installed' })
      .whereNotNull('n.edge_https_port')
      .where((query) => query.whereNull('e.force_https').orWhere('e.force_https', true))
      .whereNotExists(function () {
        this.select(1)
          .from('operations as o')
          .whereIn('o.kind', ['environment.edge', 'certificate.issue', 'certificate.install', 'environment.domains'])
          .whereIn('o.status', ['queued', 'running'])
          .whereRaw("(o.input->>'environment_id')::int = e.id");
      })
      .select(
        'e.id',
        'e.team_id',
        'e.site_id',
        'e.kind',
        'e.domain',
        'e.primary_domain',
        'e.force_https',
        'e.hsts_max_age_seconds',
        'e.url_scheme',
        'c.names',
      )) as Array<{
      id: number;
      team_id: number;
      site_id: number;
      kind: 'production' | 'staging' | 'development';
      domain: string;
      primary_domain: string | null;
      force_https: boolean | null;
      hsts_max_age_seconds: number | null;
      url_scheme: 'http' | 'https';
      names: string[];
    }>;
    const due = new Map(rows.filter((row) => httpsState(row, { names: row.names }).wanted_scheme === 'https').map((row) => [row.id, row]));
    return startOperations(
      trx,
      deps,
      'environment.edge',
      [...due.values()].map((row) => ({
        input: { site_id: row.site_id, environment_id: row.id, change: 'https' as const },
        start: { teamId: row.team_id, target: { type: 'environment', id: row.id }, serialKeys: [environmentKey(row)], createdByUserId: null },
      })),
    );
  });
}
