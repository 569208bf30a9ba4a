import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

type FieldFrame = { label: string; error?: string | undefined; hint?: ReactNode };

/**
 * A labelled control with its hint and its error, the error tied to the control (aria-invalid,
 * aria-describedby) so a screen reader says what is wrong where it is wrong.
 */
function Frame({ id, label, error, hint, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} className="field-error" role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}

function describedBy(id: string, frame: FieldFrame): string | undefined {
  const ids = [frame.hint ? `${id}-hint` : null, frame.error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function TextField({ label, error, hint, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement> & { name: string }) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} {...input} />
    </Frame>
  );
}

export function TextAreaField({ label, error, hint, ...input }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement> & { name: string }) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} {...input} />
    </Frame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  options,
  ...select
}: FieldFrame & SelectHTMLAttributes<HTMLSelectElement> & { name: string; options: readonly { value: string; label: string }[] }) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function CheckboxField({ label, hint, ...input }: { label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement> & { name: string }) {
  const id = useId();
  return (
    <div className="field field-checkbox">
      <input id={id} type="checkbox" aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}
