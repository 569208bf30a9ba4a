import { TextAreaField, TextField } from '../../components/Field.tsx';
import type { SshBody } from './types.ts';

/** The SSH login enrollment uses once (a key or a password); the API seals it and erases it once enrolled. */
export function SshFields({ error, required = true }: { error: (field: string) => string | undefined; required?: boolean }) {
  return (
    <fieldset className="operator-fieldset">
      <legend>SSH login for enrollment</legend>
      <TextField name="ssh_host" label="SSH host" required={required} hint="An IP address or host name." error={error('ssh.host')} />
      <TextField name="ssh_port" label="SSH port" type="number" min={1} max={65535} defaultValue={22} error={error('ssh.port')} />
      <TextField
        name="ssh_user"
        label="SSH user"
        defaultValue="root"
        required={required}
        hint="Usually root: the agent runs as a systemd service."
        error={error('ssh.user')}
      />
      <TextAreaField
        name="ssh_private_key"
        label="Private key (OpenSSH or PEM)"
        rows={5}
        spellCheck={false}
        autoComplete="off"
        error={error('ssh.private_key')}
      />
      <TextField name="ssh_passphrase" label="Key passphrase (if any)" type="password" autoComplete="off" error={error('ssh.passphrase')} />
      <TextField name="ssh_password" label="Or a password" type="password" autoComplete="off" hint="Used when no key is given." error={error('ssh.password')} />
    </fieldset>
  );
}

/** The form's SSH values as the body's `ssh` object (empty fields left out). */
export function sshFrom(values: Record<string, string>): SshBody {
  return {
    host: values.ssh_host ?? '',
    user: values.ssh_user ?? '',
    ...(values.ssh_port ? { port: Number(values.ssh_port) } : {}),
    ...(values.ssh_private_key ? { private_key: values.ssh_private_key } : {}),
    ...(values.ssh_passphrase ? { passphrase: values.ssh_passphrase } : {}),
    ...(values.ssh_password ? { password: values.ssh_password } : {}),
  };
}
