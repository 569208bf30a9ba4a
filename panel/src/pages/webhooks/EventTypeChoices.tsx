import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { berth } from '../../api/berth.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { CheckboxField } from '../../components/Field.tsx';

/**
 * The event types an endpoint receives, one checkbox each (none ticked: every event). Controlled by
 * the form, since several checked boxes of one name would reach useApiForm as a single value.
 */
export function EventTypeChoices({
  selected,
  onChange,
  error,
}: {
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  error?: string | undefined;
}) {
  const types = useQuery({ queryKey: ['webhooks', 'event-types'], queryFn: () => berth.webhooks.listEventTypes(), staleTime: Infinity });
  const legendId = useId();
  const toggle = (type: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(type);
    else next.delete(type);
    onChange(next);
  };
  // types chosen earlier that the list no longer names (a group such as `site.*`) stay visible
  const known = new Set((types.data ?? []).map((type) => type.type));
  const extra = [...selected].filter((type) => !known.has(type)).map((type) => ({ type, description: 'a group or an earlier type' }));
  return (
    <fieldset className="webhooks-events" aria-describedby={error ? `${legendId}-error` : undefined}>
      <legend>Events (none ticked: every event)</legend>
      <ErrorNotice error={types.error} />
      <div className="choices">
        {[...(types.data ?? []), ...extra].map((type) => (
          <CheckboxField
            key={type.type}
            name={`event-${type.type}`}
            label={type.type}
            hint={type.description}
            checked={selected.has(type.type)}
            onChange={(event) => toggle(type.type, event.target.checked)}
          />
        ))}
      </div>
      {error ? (
        <small id={`${legendId}-error`} className="field-error" role="alert">
          {error}
        </small>
      ) : null}
    </fieldset>
  );
}
