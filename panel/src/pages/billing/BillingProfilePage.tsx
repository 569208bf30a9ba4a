import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { berth } from '../../api/berth.ts';
import { can, useMe } from '../../app/session.tsx';
import { ErrorNotice, Notice } from '../../components/ErrorNotice.tsx';
import { TextField } from '../../components/Field.tsx';
import { Form, useApiForm } from '../../components/Form.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Section } from '../../components/Page.tsx';
import { BillingFrame } from './BillingFrame.tsx';

/** Empty optional fields are sent as null: the API replaces the whole profile (PUT). */
const optional = (value: string | undefined) => (value?.trim() ? value.trim() : null);

/** Who invoices are made out to: company, address, VAT id, the address they are mailed to. */
export default function BillingProfilePage() {
  const me = useMe();
  const [saved, setSaved] = useState(false);
  const profile = useQuery({ queryKey: ['billingProfile'], queryFn: () => berth.billingProfile.get() });
  const form = useApiForm({
    submit: (values) =>
      berth.billingProfile.replace({
        body: {
          legal_name: values.legal_name ?? '',
          invoice_email: optional(values.invoice_email),
          address_line1: values.address_line1 ?? '',
          address_line2: optional(values.address_line2),
          postal_code: values.postal_code ?? '',
          city: values.city ?? '',
          region: optional(values.region),
          country: (values.country ?? '').toUpperCase(),
          tax_id: optional(values.tax_id),
        },
      }),
    invalidates: [['billingProfile']],
    onSuccess: () => setSaved(true),
  });
  const data = profile.data;
  const readOnly = !can(me, 'billing:manage');
  return (
    <BillingFrame title="Billing details">
      {profile.isPending ? <Loading label="Loading the billing details" /> : null}
      <ErrorNotice error={profile.error} />
      {data ? (
        <Section title="Invoices are made out to">
          {!data.complete ? <Notice tone="info">Not given yet: invoices are made out to the team's name.</Notice> : null}
          {saved ? <Notice tone="success">Saved. Invoices issued from now on use these details.</Notice> : null}
          <Form form={form} submitLabel="Save billing details" key={data.updated_at ?? 'new'}>
            <fieldset disabled={readOnly} className="billing-fieldset">
              <TextField
                name="legal_name"
                label="Company or legal name"
                required
                maxLength={200}
                defaultValue={data.legal_name ?? ''}
                error={form.error('legal_name')}
              />
              <TextField
                name="address_line1"
                label="Address"
                required
                maxLength={200}
                autoComplete="address-line1"
                defaultValue={data.address_line1 ?? ''}
                error={form.error('address_line1')}
              />
              <TextField
                name="address_line2"
                label="Address, line 2 (optional)"
                maxLength={200}
                autoComplete="address-line2"
                defaultValue={data.address_line2 ?? ''}
                error={form.error('address_line2')}
              />
              <TextField
                name="postal_code"
                label="Postal code"
                required
                maxLength={20}
                autoComplete="postal-code"
                defaultValue={data.postal_code ?? ''}
                error={form.error('postal_code')}
              />
              <TextField
                name="city"
                label="City"
                required
                maxLength={100}
                autoComplete="address-level2"
                defaultValue={data.city ?? ''}
                error={form.error('city')}
              />
              <TextField
                name="region"
                label="Region or state (optional)"
                maxLength={100}
                autoComplete="address-level1"
                defaultValue={data.region ?? ''}
                error={form.error('region')}
              />
              <TextField
                name="country"
                label="Country"
                required
                maxLength={2}
                autoComplete="country"
                hint="Two letters (ISO 3166-1), e.g. DE, FR, US."
                defaultValue={data.country ?? ''}
                error={form.error('country')}
              />
              <TextField
                name="tax_id"
                label="VAT id (optional)"
                maxLength={40}
                hint="With the country, it decides the VAT charged (reverse charge within the EU)."
                defaultValue={data.tax_id ?? ''}
                error={form.error('tax_id')}
              />
              <TextField
                name="invoice_email"
                label="Send invoices to (optional)"
                type="email"
                maxLength={254}
                hint="Invoices also go to the team's owners and billing members."
                defaultValue={data.invoice_email ?? ''}
                error={form.error('invoice_email')}
              />
            </fieldset>
          </Form>
          {readOnly ? <p className="muted">Your role can read these details, not change them.</p> : null}
        </Section>
      ) : null}
    </BillingFrame>
  );
}
