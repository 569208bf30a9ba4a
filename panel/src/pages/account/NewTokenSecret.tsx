import { useId, useState } from 'react';
import { Notice } from '../../components/ErrorNotice.tsx';

/** The new token's secret, shown once: the API keeps only a hash of it. */
export function NewTokenSecret({ name, secret, onDone }: { name: string; secret: string | null; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const id = useId();
  const copy = () => {
    if (!secret) return;
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <Notice tone="warning">
      {secret ? (
        <>
          <p>
            <strong>Copy the secret of “{name}” now.</strong> It is shown only this once; if you lose it, revoke the token and create another.
          </p>
          <div className="field">
            <label htmlFor={id}>Token secret</label>
            <input id={id} className="account-secret" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} spellCheck={false} />
          </div>
          <div className="button-row">
            <button type="button" className="button button-primary" onClick={copy}>
              Copy to clipboard
            </button>
            <button type="button" className="button" onClick={onDone}>
              I have saved it
            </button>
            <span role="status">{copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Copying failed: select the text and copy it.' : ''}</span>
          </div>
        </>
      ) : (
        <>
          <p>“{name}” was created by an earlier request, and its secret is not kept: revoke it and create another.</p>
          <button type="button" className="button" onClick={onDone}>
            Close
          </button>
        </>
      )}
    </Notice>
  );
}
