import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

/**
 * Asks before a destructive action. With `typeToConfirm` (a site's name) the button only works once
 * that exact text is typed: a misclick cannot delete a site or overwrite it with a backup.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  typeToConfirm,
  pending,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  typeToConfirm?: string;
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [typed, setTyped] = useState('');
  const titleId = useId();
  const inputId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setTyped('');
      element.showModal();
    }
    if (!open && element.open) element.close();
  }, [open]);
  const ready = typeToConfirm === undefined || typed === typeToConfirm;
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby={titleId} onCancel={onCancel}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          if (ready) onConfirm();
        }}
      >
        <h2 id={titleId}>{title}</h2>
        <div className="dialog-body">{children}</div>
        {typeToConfirm !== undefined ? (
          <div className="field">
            <label htmlFor={inputId}>
              Type <strong>{typeToConfirm}</strong> to confirm
            </label>
            <input id={inputId} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} />
          </div>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button-danger" disabled={!ready || pending}>
            {pending ? `${confirmLabel}…` : confirmLabel}
          </button>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
