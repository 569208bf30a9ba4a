import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Loading } from '../../components/Loading.tsx';

type Permission = Awaited<ReturnType<typeof berth.permissions.list>>[number];

/** The permission catalogue (GET /v1/permissions), cached: any signed-in caller may read it. */
export function usePermissionCatalogue() {
  return useQuery({ queryKey: ['permissions'], queryFn: () => berth.permissions.list(), staleTime: 10 * 60_000 });
}

function byResource(permissions: readonly Permission[]): [string, Permission[]][] {
  const groups = new Map<string, Permission[]>();
  for (const permission of permissions) {
    const resource = permission.permission.split(':')[0] ?? permission.permission;
    groups.set(resource, [...(groups.get(resource) ?? []), permission]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Permissions as checkboxes, one group per resource. A grant the signed-in user does not hold is
 * shown but disabled: the API refuses to hand out what the caller lacks (403).
 */
export function PermissionChecklist({
  legend,
  selected,
  onChange,
  readOnly,
  error,
}: {
  legend: string;
  selected: ReadonlySet<string>;
  onChange?: (next: Set<string>) => void;
  readOnly?: boolean;
  error?: string | undefined;
}) {
  const me = useMe();
  const errorId = useId();
  const catalogue = usePermissionCatalogue();
  if (catalogue.isPending) return <Loading label="Loading the permissions" />;
  if (catalogue.isError) return <ErrorNotice error={catalogue.error} />;
  const toggle = (permission: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(permission);
    else next.delete(permission);
    onChange?.(next);
  };
  return (
    <fieldset className="team-permissions" aria-describedby={error ? errorId : undefined}>
      <legend>
        {legend} <span className="muted">({selected.size} chosen)</span>
      </legend>
      {error ? (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      ) : null}
      <div className="team-permission-groups">
        {byResource(catalogue.data).map(([resource, permissions]) => (
          <fieldset key={resource} className="choices team-permission-group">
            <legend>{resource.replace(/_/g, ' ')}</legend>
            {permissions.map((permission) => {
              const held = can(me, permission.permission);
              return (
                <label key={permission.permission} className="choice" title={permission.description}>
                  <input
                    type="checkbox"
                    checked={selected.has(permission.permission)}
                    disabled={readOnly || !held}
                    onChange={(event) => toggle(permission.permission, event.target.checked)}
                  />
                  <span>
                    <code>{permission.permission}</code>
                    {permission.description ? <small className="hint"> {permission.description}</small> : null}
                    {!held && !readOnly ? <small className="muted"> (your role lacks it)</small> : null}
                  </span>
                </label>
              );
            })}
          </fieldset>
        ))}
      </div>
    </fieldset>
  );
}
