import type { FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';

export type Filters = { action: string; actor: string; since: string; until: string };
export const noFilters: Filters = { action: '', actor: '', since: '', until: '' };

/** The audit log's filters; the API checks them (a bad one answers 422 naming it, shown by field). */
export function ActivityFilters({
  filters,
  onApply,
  error,
}: {
  filters: Filters;
  onApply: (filters: Filters) => void;
  error: (field: string) => string | undefined;
}) {
  const me = useMe();
  // the actor as a member's name when the members can be read; else their user id by hand
  const members = useQuery({
    queryKey: ['members', me.team_id, 'all'],
    queryFn: () => berth.members.list({ id: me.team_id, page: 1, page_size: 100 }),
    enabled: can(me, 'members:read'),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    onApply({ action: text('action'), actor: text('actor'), since: text('since'), until: text('until') });
  };
  return (
    // keyed by the filters so Clear empties the fields
    <form key={JSON.stringify(filters)} className="form form-inline" onSubmit={submit} role="search" aria-label="Filter the activity">
      <TextField name="action" label="Action" hint="Exact, or a prefix ending in * (member.*)" defaultValue={filters.action} error={error('action')} />
      {members.data ? (
        <SelectField
          name="actor"
          label="Who"
          options={[{ value: '', label: 'Anyone' }, ...members.data.data.map((member) => ({ value: String(member.user_id), label: member.name }))]}
          defaultValue={filters.actor}
          error={error('actor_user_id')}
        />
      ) : (
        <TextField name="actor" label="Actor user id" inputMode="numeric" defaultValue={filters.actor} error={error('actor_user_id')} />
      )}
      <TextField name="since" label="From (inclusive)" type="date" defaultValue={filters.since} error={error('since')} />
      <TextField name="until" label="Until (exclusive)" type="date" defaultValue={filters.until} error={error('until')} />
      <div className="form-actions">
        <button type="submit" className="button button-primary">
          Filter
        </button>
        <button type="button" className="button" onClick={() => onApply(noFilters)}>
          Clear
        </button>
      </div>
    </form>
  );
}
