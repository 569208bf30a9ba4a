import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { berth } from '../../api/berth.ts';
import { Form, useApiForm } from '../../components/Form.tsx';
import { SelectField, TextField } from '../../components/Field.tsx';
import { Page, Section } from '../../components/Page.tsx';
import { useMe } from '../../app/session.tsx';

/** A new WordPress site: its production environment is built at once, and the site's page shows it happen. */
export default function CreateSitePage() {
  const me = useMe();
  const [, navigate] = useLocation();
  const php = useQuery({ queryKey: ['php-versions'], queryFn: () => berth.sites.listPhpVersions(), staleTime: Infinity });
  const form = useApiForm({
    submit: (values) =>
      berth.sites.create({
        body: {
          name: values.name ?? '',
          ...(values.slug ? { slug: values.slug } : {}),
          php_version: values.php_version || php.data?.default || '',
          wordpress: { title: values.title || values.name || '', admin_user: values.admin_user ?? '', admin_email: values.admin_email ?? '' },
        },
      }),
    invalidates: [['sites']],
    onSuccess: (accepted) => navigate(`/sites/${accepted.site.id}?operation=${accepted.operation.id}`),
  });
  const versions = php.data?.versions ?? [];
  return (
    <Page title="New site" back={{ href: '/', label: 'Sites' }}>
      <Section title="WordPress site">
        <Form form={form} submitLabel="Create site">
          <TextField name="name" label="Site name" required maxLength={100} error={form.error('name')} />
          <TextField
            name="slug"
            label="Address part (optional)"
            hint="Lower-case letters, digits and dashes, 3 to 30; made from the name when empty. Used in the site's default domains."
            error={form.error('slug')}
          />
          <SelectField
            name="php_version"
            label="PHP version"
            options={versions.map((version) => ({ value: version, label: `PHP ${version}` }))}
            defaultValue={php.data?.default}
            key={php.data?.default ?? 'loading'}
            error={form.error('php_version')}
          />
          <TextField name="title" label="WordPress site title" hint="The site name when empty." error={form.error('wordpress.title')} />
          <TextField name="admin_user" label="WordPress admin user name" required autoComplete="off" error={form.error('wordpress.admin_user')} />
          <TextField
            name="admin_email"
            label="WordPress admin e-mail"
            type="email"
            required
            defaultValue={me.email}
            hint="WordPress e-mails a link to set the admin password; Berth never stores it."
            error={form.error('wordpress.admin_email')}
          />
        </Form>
      </Section>
    </Page>
  );
}
