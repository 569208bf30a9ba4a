import { TextField } from '../../components/Field.tsx';

type FieldError = (field: string) => string | undefined;

/** A new password, as the API checks it (8 to 128 characters once normalised). */
export function NewPasswordField({ name, label, error }: { name: string; label: string; error: FieldError }) {
  return <TextField name={name} label={label} type="password" autoComplete="new-password" required error={error(name)} hint="8 to 128 characters." />;
}

/** Who is signing up: the fields Door A and Door B share. */
export function AccountFields({ error }: { error: FieldError }) {
  return (
    <>
      <TextField name="name" label="Your name" autoComplete="name" required error={error('name')} />
      <TextField name="email" label="E-mail" type="email" autoComplete="email" required error={error('email')} />
      <NewPasswordField name="password" label="Password" error={error} />
    </>
  );
}
