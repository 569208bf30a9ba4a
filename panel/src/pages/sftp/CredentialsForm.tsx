import { useState } from 'react';
import type { SftpUser } from '@berth/sdk';
import { berth } from '../../api/berth.ts';
import { fieldErrors } from '../../api/errors.ts';
import { SelectField, TextAreaField, TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { useEnvironmentParams } from '../sites/EnvironmentFrame.tsx';

type Method = 'generate' | 'password' | 'keys';

export type Created = { sftp_user: SftpUser; password: string | null; operation: { id: string } };

const methods: { value: Method; label: string }[] = [
  { value: 'generate', label: 'A password Berth generates (shown once)' },
  { value: 'password', label: 'A password I choose' },
  { value: 'keys', label: 'OpenSSH public key(s)' },
];

function keysOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A new SFTP user, or new credentials for `user`: a generated password, one of your own, or public keys. */
export function CredentialsForm({ user, onDone, onCancel }: { user?: SftpUser; onDone: (answer: Created) => void; onCancel?: () => void }) {
  const { siteId, env } = useEnvironmentParams();
  const [method, setMethod] = useState<Method>(user && user.public_keys.length > 0 && !user.password ? 'keys' : 'generate');
  const form = useApiForm({
    submit: (values): Promise<Created> => {
      const credentials =
        method === 'generate'
          ? { generate_password: true }
          : method === 'password'
            ? { password: values.password ?? '' }
            : { public_keys: keysOf(values.public_keys ?? '') };
      if (user) return berth.sftpUsers.update({ id: siteId, env, user: user.id, body: credentials });
      return berth.sftpUsers.create({ id: siteId, env, body: { ...(values.username ? { username: values.username.trim() } : {}), ...credentials } });
    },
    invalidates: [['sftp-users', siteId, env]],
    onSuccess: onDone,
  });
  const errors = fieldErrors(form.mutation.error);
  const keyErrors = Object.entries(errors)
    .filter(([field]) => field === 'public_keys' || field.startsWith('public_keys.'))
    .map(([field, message]) => (field === 'public_keys' ? message : `key ${Number(field.slice('public_keys.'.length)) + 1}: ${message}`));
  return (
    <Form
      form={form}
      submitLabel={user ? 'Change credentials' : 'Create SFTP user'}
      secondary={
        onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null
      }
    >
      {user ? null : (
        <TextField
          name="username"
          label="Username (optional)"
          autoComplete="off"
          spellCheck={false}
          hint="3 to 32 characters: a lower-case letter, then lower-case letters, digits, - or _. Made up for you when empty."
          error={form.error('username')}
        />
      )}
      <SelectField
        name="method"
        label="Signs in with"
        value={method}
        onChange={(event) => setMethod(event.target.value as Method)}
        options={methods}
        error={form.error('generate_password')}
      />
      {method === 'password' ? (
        <TextField name="password" label="Password" type="password" autoComplete="new-password" hint="8 to 128 characters." error={form.error('password')} />
      ) : null}
      {method === 'keys' ? (
        <TextAreaField
          name="public_keys"
          label="Public keys"
          rows={4}
          spellCheck={false}
          placeholder="ssh-ed25519 AAAA… you@laptop"
          hint={`One key a line (ed25519, ECDSA, or RSA of 2048 bits or more).${user ? ' They replace the user’s current keys.' : ''}`}
          error={keyErrors.length ? keyErrors.join('; ') : undefined}
        />
      ) : null}
    </Form>
  );
}
