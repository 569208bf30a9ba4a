import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { fieldErrors } from '../api/errors.ts';
import { ErrorNotice } from './ErrorNotice.tsx';

/** A form's values by name: text as typed, checkboxes as 'on' when ticked (absent otherwise). */
function valuesOf(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value;
  return values;
}

/**
 * A form that sends one API call: the call's 422 `details.fields` come back by field name for the
 * fields to show, anything else above the submit button. `invalidates` are the cached queries the
 * call changes (refetched once it succeeded).
 */
export function useApiForm<Result>(options: {
  submit: (values: Record<string, string>) => Promise<Result>;
  onSuccess?: (result: Result) => void;
  invalidates?: QueryKey[];
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: options.submit,
    onSuccess: async (result) => {
      await Promise.all((options.invalidates ?? []).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      options.onSuccess?.(result);
    },
  });
  const errors = fieldErrors(mutation.error);
  return {
    mutation,
    /** The API's message for a field, by the body's name for it (`name`, `domain.name`, ...). */
    error: (field: string): string | undefined => errors[field],
    onSubmit: (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      mutation.mutate(valuesOf(event.currentTarget));
    },
  };
}

export function Form({
  form,
  submitLabel,
  children,
  secondary,
  className,
}: {
  form: ReturnType<typeof useApiForm<unknown>> | ReturnType<typeof useApiForm<never>>;
  submitLabel: string;
  children: ReactNode;
  secondary?: ReactNode;
  className?: string;
}) {
  const pending = form.mutation.isPending;
  return (
    <form className={className ?? 'form'} onSubmit={form.onSubmit} noValidate aria-busy={pending}>
      {children}
      <ErrorNotice error={form.mutation.error} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? `${submitLabel}…` : submitLabel}
        </button>
        {secondary}
      </div>
    </form>
  );
}
