import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDraftInvoice, finalizeInvoice } from '../../../shared/domains/billing/invoices.ts';
import { choosePlan, markPaid, signedInOperator, signedInOwner } from '../../helpers/billing.ts';
import { accessTokenOf, uniqueEmail } from '../../helpers/factories.ts';
import { pdfText } from '../../helpers/pdf-text.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { addMember, call, failedFields } from '../../helpers/team-members.ts';

/**
 * Team billing profiles: who invoices are made out to (the bill-to block, kept on the invoice at
 * finalization), the EU reverse charge they decide (the seller here is in Germany, 20 % otherwise),
 * and where the invoice mail goes.
 */
const REVERSE_CHARGE = 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 Directive 2006/112/EC)';
const OUTSIDE_EU = 'VAT not applicable: services supplied outside the EU (Art. 44 and 58 Directive 2006/112/EC)';
let stack: Stack;
let operator = '';

beforeAll(async () => {
  stack = await startStack({ env: { BILLING_TAX_RATE_BPS: '2000', BILLING_SELLER_NAME: 'Berth Hosting GmbH', BILLING_SELLER_COUNTRY: 'DE' } });
  operator = (await signedInOperator(stack)).token;
});
afterAll(async () => {
  await stack?.stop();
});

const french = {
  legal_name: 'Atelier Dupont SARL',
  address_line1: '12 rue de la Paix',
  address_line2: 'Bâtiment B',
  postal_code: '75002',
  city: 'Paris',
  country: 'FR',
  tax_id: 'FR AB 123456789',
};

const putProfile = (token: string, body: unknown) => call(stack.client(), 'PUT', '/v1/billing/profile', token, body);
const getProfile = (token: string) => call(stack.client(), 'GET', '/v1/billing/profile', token);
const getInvoice = (token: string, id: number) => call(stack.client(), 'GET', `/v1/billing/invoices/${id}`, token);
const invoicePdf = async (token: string, id: number) => pdfText((await call(stack.client(), 'GET', `/v1/billing/invoices/${id}/pdf`, token)).bytes);

describe('the billing profile', () => {
  it('is empty and incomplete until given; PUT replaces it whole, normalized', async () => {
    const owner = await signedInOwner(stack);
    const empty = await getProfile(owner.token);
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({
      complete: false,
      legal_name: null,
      invoice_email: null,
      address_line1: null,
      address_line2: null,
      postal_code: null,
      city: null,
      region: null,
      country: null,
      tax_id: null,
      updated_at: null,
    });

    const put = await putProfile(owner.token, { ...french, country: 'fr', region: 'Île-de-France', invoice_email: 'compta@dupont.example' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({
      complete: true,
      ...french,
      country: 'FR',
      tax_id: 'FRAB123456789',
      region: 'Île-de-France',
      invoice_email: 'compta@dupont.example',
    });
    expect((await getProfile(owner.token)).body.data).toEqual(put.body.data);

    // Full replace: what is left out is cleared.
    const replaced = await putProfile(owner.token, {
      legal_name: 'Dupont',
      address_line1: '1 place du Marché',
      postal_code: '69001',
      city: 'Lyon',
      country: 'FR',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toMatchObject({ legal_name: 'Dupont', address_line2: null, region: null, tax_id: null, invoice_email: null, city: 'Lyon' });
  });

  it('names each field that is not valid (422)', async () => {
    const owner = await signedInOwner(stack);
    const bad = async (body: unknown) => {
      const reply = await putProfile(owner.token, body);
      expect(reply.status).toBe(422);
      expect(reply.body.error.code).toBe('VALIDATION_ERROR');
      return reply;
    };
    expect(failedFields(await bad({ ...french, country: 'XX' }))).toEqual(['country']);
    expect(failedFields(await bad({ ...french, country: 'UK', tax_id: null }))).toEqual(['country']);

    const otherCountry = await bad({ ...french, country: 'DE' });
    expect(otherCountry.body.error.details.fields).toEqual([{ field: 'tax_id', message: 'must be a VAT id of DE, starting with DE (e.g. DE123456789)' }]);
    const badShape = await bad({ ...french, tax_id: 'FR1234' });
    expect(badShape.body.error.details.fields).toEqual([{ field: 'tax_id', message: 'is not in the format of VAT ids of FR (e.g. FRAB123456789)' }]);

    expect(failedFields(await bad({ country: 'FR' })).sort()).toEqual(['address_line1', 'city', 'legal_name', 'postal_code']);
    expect(failedFields(await bad({ ...french, legal_name: 'x'.repeat(201), city: ' ', invoice_email: 'not-an-email' })).sort()).toEqual([
      'city',
      'invoice_email',
      'legal_name',
    ]);
    // The tax id is checked against a valid country even when other fields fail.
    expect(failedFields(await bad({ ...french, legal_name: '', tax_id: 'DE123456789' })).sort()).toEqual(['legal_name', 'tax_id']);
    expect(failedFields(await bad({ ...french, vat: 'x' }))).toEqual(['vat']);
    // Postgres text cannot hold NUL: a 422 naming the field, not a 500 from the insert.
    const nul = await bad({ ...french, legal_name: 'Atelier\u0000Dupont', address_line2: '\u0000', region: 'Île\u0000' });
    expect(nul.body.error.details.fields).toEqual(expect.arrayContaining([{ field: 'legal_name', message: 'must not contain the NUL character (\\u0000)' }]));
    expect(failedFields(nul).sort()).toEqual(['address_line2', 'legal_name', 'region']);
    expect(failedFields(await bad({ ...french, city: 'Paris\u0000', postal_code: '75\u0000', address_line1: '\u0000x' })).sort()).toEqual([
      'address_line1',
      'city',
      'postal_code',
    ]);
    expect((await getProfile(owner.token)).body.data.complete).toBe(false);
  });

  it('is read with billing:read and changed with billing:manage (a billing member may, a developer may not), per team', async () => {
    const owner = await signedInOwner(stack);
    const team = { teamId: owner.user.teamId, teamName: owner.user.teamName };
    const developer = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, team, 'developer'));
    const billing = await accessTokenOf(stack.client(), await addMember(stack.ctx.db, team, 'billing'));

    const denied = await putProfile(developer, french);
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.permission).toBe('billing:manage');
    expect((await getProfile(developer)).status).toBe(403);

    expect((await putProfile(billing, french)).status).toBe(200);
    expect((await getProfile(owner.token)).body.data.legal_name).toBe(french.legal_name);

    const stranger = await signedInOwner(stack);
    expect((await getProfile(stranger.token)).body.data.complete).toBe(false);
    expect((await putProfile(stranger.token, { ...french, legal_name: 'Someone Else' })).status).toBe(200);
    expect((await getProfile(owner.token)).body.data.legal_name).toBe(french.legal_name);

    const outcomes = async () =>
      (await stack.ctx.db('activity').where({ team_id: team.teamId, action: 'billing_profile.updated' }).select('outcome'))
        .map((row) => row.outcome as string)
        .sort();
    await expect.poll(outcomes).toEqual(['denied', 'success']);
  });
});

describe('invoices of a team with a billing profile', () => {
  it('reverse-charge an EU business in another EU country: 0 % with the note, the bill-to block, mailed to the invoice email only', async () => {
    const owner = await signedInOwner(stack);
    const billingMember = await addMember(stack.ctx.db, { teamId: owner.user.teamId, teamName: owner.user.teamName }, 'billing');
    const invoiceEmail = uniqueEmail();
    expect((await putProfile(owner.token, { ...french, invoice_email: invoiceEmail })).status).toBe(200);

    const invoice = (await choosePlan(stack, owner.token, 'business')).body.data.invoice;
    expect(invoice).toMatchObject({ subtotal_minor: 4900, tax_minor: 0, total_minor: 4900, tax_note: REVERSE_CHARGE });
    const shown = (await getInvoice(owner.token, invoice.id)).body.data;
    expect(shown.lines.filter((line: { kind: string }) => line.kind === 'tax')).toEqual([
      { kind: 'tax', description: 'Tax 0 % (reverse charge)', quantity: 1, unit_amount_minor: 0, amount_minor: 0, tax_rate_bps: 0, taxable_minor: 4900 },
    ]);
    expect(shown.customer).toEqual({
      legal_name: 'Atelier Dupont SARL',
      address_line1: '12 rue de la Paix',
      address_line2: 'Bâtiment B',
      postal_code: '75002',
      city: 'Paris',
      region: null,
      country: 'FR',
      tax_id: 'FRAB123456789',
    });

    const mail = await stack.mailbox.waitFor(invoiceEmail, new RegExp(`^Invoice ${invoice.number} from Berth: €49\\.00$`));
    expect(stack.mailbox.to(owner.user.email)).toEqual([]);
    expect(stack.mailbox.to(billingMember.email)).toEqual([]);
    const mailed = pdfText(mail.attachments[0]!.content);
    expect(mailed).toEqual(
      expect.arrayContaining([
        'From: Berth Hosting GmbH',
        'Billed to: Atelier Dupont SARL',
        '12 rue de la Paix',
        'Bâtiment B',
        '75002 Paris',
        'France',
        'VAT ID: FRAB123456789',
        'Tax 0 % (reverse charge) on €49.00',
        '€0.00',
        'Total',
        '€49.00',
      ]),
    );
    expect(mailed.join(' ')).toContain(REVERSE_CHARGE);
    expect(mailed.join(' ')).not.toContain(owner.user.teamName);
  });

  it("charge the default rate without the note otherwise: the seller's own country, an EU consumer (no VAT id)", async () => {
    const cases = [
      { ...french, legal_name: 'Muster GmbH', country: 'DE', tax_id: 'DE123456789', postal_code: '10115', city: 'Berlin' },
      { ...french, legal_name: 'Max Muster', country: 'DE', tax_id: null, postal_code: '10115', city: 'Berlin' },
      { ...french, tax_id: null },
    ];
    for (const profile of cases) {
      const owner = await signedInOwner(stack);
      expect((await putProfile(owner.token, profile)).status).toBe(200);
      const invoice = (await choosePlan(stack, owner.token, 'business')).body.data.invoice;
      expect(invoice, profile.country).toMatchObject({ tax_minor: 980, total_minor: 5880, tax_note: null });
      const text = await invoicePdf(owner.token, invoice.id);
      expect(text).toEqual(expect.arrayContaining([`Billed to: ${profile.legal_name}`, 'Tax 20 % on €49.00', '€9.80']));
      expect(text.join(' ')).not.toContain('Reverse charge');
    }
  });

  it("charge no VAT to a customer outside the EU, business or consumer: 0 % with the note (the place of supply is the customer's country)", async () => {
    const cases = [
      { ...french, legal_name: 'Acme Inc.', country: 'US', region: 'CA', tax_id: '12-3456789', postal_code: '94103', city: 'San Francisco' },
      { ...french, legal_name: 'Jane Doe', country: 'GB', tax_id: null, postal_code: 'SW1A 1AA', city: 'London' },
      { ...french, legal_name: 'Muster AG', country: 'CH', tax_id: 'CHE123456789', postal_code: '8001', city: 'Zürich' },
    ];
    for (const profile of cases) {
      const owner = await signedInOwner(stack);
      expect((await putProfile(owner.token, profile)).status).toBe(200);
      const invoice = (await choosePlan(stack, owner.token, 'business')).body.data.invoice;
      expect(invoice, profile.country).toMatchObject({ subtotal_minor: 4900, tax_minor: 0, total_minor: 4900, tax_note: OUTSIDE_EU });
      const text = await invoicePdf(owner.token, invoice.id);
      expect(text).toEqual(expect.arrayContaining([`Billed to: ${profile.legal_name}`, 'Total', '€49.00']));
      expect(text.join(' ')).toContain(OUTSIDE_EU);
      expect(text.join(' ')).not.toContain('Tax 20 %');
    }
  });

  it('are taxed and made out from one reading of the profile: a change between the draft and its finalization does not reach the invoice', async () => {
    const owner = await signedInOwner(stack);
    expect((await putProfile(owner.token, french)).status).toBe(200);
    const settings = stack.ctx.config.billing;
    const open = await stack.ctx.db.transaction(async (trx) => {
      const draft = await createDraftInvoice(
        trx,
        {
          teamId: owner.user.teamId,
          subscriptionId: null,
          currency: 'EUR',
          provider: 'manual',
          period: null,
          items: [{ description: 'Work', quantity: 1, unitAmountMinor: 4900 }],
        },
        settings,
      );
      // Another connection changes the profile meanwhile: no VAT id any more.
      expect((await putProfile(owner.token, { ...french, legal_name: 'Dupont (consumer)', tax_id: null })).status).toBe(200);
      return finalizeInvoice(trx, draft.id, settings);
    });
    expect(open).toMatchObject({ status: 'open', tax_minor: 0, tax_note: REVERSE_CHARGE });
    expect(open.customer).toMatchObject({ legal_name: 'Atelier Dupont SARL', tax_id: 'FRAB123456789' });
  });

  it('keep the details they were finalized with when the profile changes; a team without a profile is billed by its name', async () => {
    const owner = await signedInOwner(stack);
    expect((await putProfile(owner.token, french)).status).toBe(200);
    const invoice = (await choosePlan(stack, owner.token, 'business')).body.data.invoice;
    const before = (await getInvoice(owner.token, invoice.id)).body.data;

    expect((await putProfile(owner.token, { ...french, legal_name: 'Dupont & Fils SAS', address_line1: '3 avenue Foch', tax_id: null })).status).toBe(200);
    const after = (await getInvoice(owner.token, invoice.id)).body.data;
    expect(after.customer).toEqual(before.customer);
    expect(after).toMatchObject({ tax_minor: 0, tax_note: REVERSE_CHARGE });
    const text = await invoicePdf(owner.token, invoice.id);
    expect(text).toEqual(expect.arrayContaining(['Billed to: Atelier Dupont SARL', '12 rue de la Paix', 'VAT ID: FRAB123456789']));
    expect(text.join(' ')).not.toContain('Dupont & Fils');

    const bare = await signedInOwner(stack);
    const plain = (await choosePlan(stack, bare.token, 'starter')).body.data.invoice;
    expect((await getInvoice(bare.token, plain.id)).body.data).toMatchObject({ customer: null, tax_note: null, tax_minor: 300 });
    await stack.mailbox.waitFor(bare.user.email, new RegExp(`^Invoice ${plain.number} `));
    expect(await invoicePdf(bare.token, plain.id)).toContain(`Billed to: ${bare.user.teamName}`);
  });
});

describe('credit notes of a team with a billing profile', () => {
  it('go where its invoices go (the invoice email only) and are made out like the invoice: its bill-to block and its reverse-charge note', async () => {
    const owner = await signedInOwner(stack);
    const billingMember = await addMember(stack.ctx.db, { teamId: owner.user.teamId, teamName: owner.user.teamName }, 'billing');
    const invoiceEmail = uniqueEmail();
    expect((await putProfile(owner.token, { ...french, invoice_email: invoiceEmail })).status).toBe(200);
    const invoice = (await choosePlan(stack, owner.token, 'business')).body.data.invoice;
    expect((await markPaid(stack, operator, invoice.id)).status).toBe(200);
    // Changed after the invoice: the credit note still shows whom the invoice was made out to.
    expect((await putProfile(owner.token, { ...french, legal_name: 'Dupont & Fils SAS', invoice_email: invoiceEmail })).status).toBe(200);

    const note = await call(stack.client(), 'POST', `/v1/admin/billing/invoices/${invoice.id}/credit-notes`, operator, {
      amount_minor: 1000,
      reason: 'Downtime',
      refund: false,
    });
    expect(note.status).toBe(201);
    const mail = await stack.mailbox.waitFor(invoiceEmail, new RegExp(`^Credit note ${note.body.data.number} from Berth: €10\\.00$`));
    const creditNoteMails = (email: string) => stack.mailbox.to(email).filter((received) => received.subject.startsWith('Credit note'));
    expect(creditNoteMails(owner.user.email)).toEqual([]);
    expect(creditNoteMails(billingMember.email)).toEqual([]);

    const mailed = pdfText(mail.attachments[0]!.content);
    expect(mailed).toEqual(
      expect.arrayContaining([
        'Credited to: Atelier Dupont SARL',
        '12 rue de la Paix',
        'Bâtiment B',
        '75002 Paris',
        'France',
        'VAT ID: FRAB123456789',
        'Reason: Downtime',
        'Total credited',
        '€10.00',
      ]),
    );
    expect(mailed.join(' ')).toContain(REVERSE_CHARGE);
    expect(mailed.join(' ')).not.toContain(owner.user.teamName);
    expect(mailed.join(' ')).not.toContain('Dupont & Fils');
  });
});
