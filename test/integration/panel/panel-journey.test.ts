import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLiveStack, type LiveStack } from '../../helpers/live-stack.ts';
import { edgeRequest } from '../../helpers/site-node.ts';
import { keepScreenshot, launchChromium, panelContext, seriousViolations, watchPageErrors } from '../../helpers/panel-browser.ts';
import type { TestUser } from '../../helpers/factories.ts';
import { currentCode } from '../../helpers/totp-codes.ts';

/**
 * The web panel in Debian's Chromium against Berth as `npm start` runs it (its own process, its
 * local agent making this machine a node, an SMTP sink): a customer signs in from a new device with
 * the e-mailed code, creates a site and watches it being built, live, to a serving WordPress, adds
 * staging and pushes it. Every page visited passes axe (no serious or critical violation).
 */
let live: LiveStack;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let owner: TestUser;
let errors: string[];
const visited = new Map<string, Awaited<ReturnType<typeof seriousViolations>>>();

beforeAll(async () => {
  [live, browser] = await Promise.all([startLiveStack('panel', { publicUrl: true }), launchChromium()]);
  context = await panelContext(browser, live.baseUrl);
  page = await context.newPage();
  errors = watchPageErrors(page);
  owner = await live.newOwner();
}, 180_000);

afterEach(async (test) => {
  // what the page showed when a step failed
  if (test.task.result?.state === 'fail' && page) await keepScreenshot(page, `failed-${test.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
});

afterAll(async () => {
  // what Berth and its local agent said (kept for a failed run: the node's side of a failed operation is only there)
  if (live) {
    fs.mkdirSync('test-artifacts/panel', { recursive: true });
    fs.writeFileSync('test-artifacts/panel/berth-output.log', live.berth.output());
  }
  await browser?.close();
  await live?.stop();
}, 90_000);

/** axe on the page as it is now, kept by name; the last test checks them all. */
async function audit(name: string): Promise<void> {
  visited.set(name, await seriousViolations(page));
}

/** Cuts every open TCP connection to the API (the browser's event streams among them), as a dropped network would: `ss -K`. */
function dropConnectionsTo(baseUrl: string): void {
  execFileSync('ss', ['-K', '-tn', `dport = :${new URL(baseUrl).port}`], { stdio: 'ignore' });
}

/** The statuses an operation's panel shows, sampled until it ends: proof that it moved on screen, unreloaded. */
async function watchOperation(timeoutMs: number, previous: string | null = null): Promise<string[]> {
  // the operation just started, not one the page showed before
  const operation = page.locator(previous ? `[data-operation-id]:not([data-operation-id="${previous}"])` : '[data-operation-id]').first();
  await operation.waitFor();
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await operation.getAttribute('data-status')) ?? '';
    if (seen.at(-1) !== status) seen.push(status);
    if (status === 'succeeded') return seen;
    if (['failed', 'cancelled'].includes(status)) {
      // what went wrong, read while the team and its rows still exist (the panel shows it too, but a failed test keeps only a screenshot)
      const id = await operation.getAttribute('data-operation-id');
      const row = await live.db('operations').where({ id }).first('kind', 'error');
      const steps = await live.db('operation_steps').where({ operation_id: id }).whereIn('status', ['failed', 'running']).select('name', 'status', 'attempts');
      throw new Error(`operation ${id} (${row?.kind}) ${status}: ${JSON.stringify({ error: row?.error, steps })}; statuses seen: ${seen.join(' → ')}`);
    }
    if (Date.now() > deadline) throw new Error(`the operation did not end in ${timeoutMs} ms; statuses seen: ${seen.join(' → ')}`);
    await page.waitForTimeout(100);
  }
}

describe('the web panel in a real browser', { timeout: 360_000 }, () => {
  it('serves the panel at / with a strict CSP, and JSON 404s to programs', async () => {
    const html = await fetch(`${live.baseUrl}/sites/42`, { headers: { accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await html.text()).toContain('<div id="root">');
    const json = await fetch(`${live.baseUrl}/no-such-path`, { headers: { accept: 'application/json' } });
    expect(json.status).toBe(404);
    expect(await json.json()).toMatchObject({ code: 'not_found' });
  });

  it('refuses a wrong password with the API’s message, then signs in from a new device with the e-mailed code', async () => {
    await page.goto('/');
    await page.waitForURL(/\/sign-in/);
    await audit('sign-in');
    await keepScreenshot(page, 'sign-in');
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/password|credentials/i);

    const mailsBefore = live.mailbox.to(owner.email).length;
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Code from the e-mail').waitFor();
    await audit('device-code');
    // a wrong code is refused where it was typed, and the sign-in can go on
    await page.getByLabel('Code from the e-mail').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').first().waitFor();
    const code = await live.deviceCode(owner.email, mailsBefore);
    await page.getByLabel('Code from the e-mail').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await audit('sites-empty');
  });

  it('shows the API’s 422 next to the field it names', async () => {
    await page.getByRole('link', { name: 'New site' }).click();
    await page.getByLabel('Site name').fill('Bad slug shop');
    await page.getByLabel('Address part (optional)').fill('NOT a slug!');
    await page.getByLabel('WordPress admin user name').fill('admin');
    await page.getByRole('button', { name: 'Create site' }).click();
    const slug = page.getByLabel('Address part (optional)');
    await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await slug.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toBeTruthy();
    await audit('new-site-invalid');
  });

  let siteUrl = '';
  let siteUrlOfPage = '';
  it('creates a site and watches its operation, live, to a WordPress that serves through the edge', async () => {
    await page.getByLabel('Site name').fill('Panel shop');
    await page.getByLabel('Address part (optional)').fill('');
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/sites\/\d+\?operation=/);
    siteUrlOfPage = page.url();
    await page.evaluate('window.unreloaded = true');
    await page.locator('[data-operation-id]').first().waitFor();
    await keepScreenshot(page, 'site-creating');
    await audit('site-creating');
    const statuses = await watchOperation(240_000);
    expect(statuses.at(-1), statuses.join(' → ')).toBe('succeeded');
    // the page saw it move (queued or running first), pushed, without a reload
    expect(statuses.length).toBeGreaterThan(1);
    expect(await page.evaluate('window.unreloaded')).toBe(true);
    await keepScreenshot(page, 'site-created');
    const link = page.locator('.env-card a[target=_blank]').first();
    await expect.poll(() => link.count(), { timeout: 20_000 }).toBe(1);
    siteUrl = (await link.getAttribute('href')) ?? '';
    const node = await live.db('nodes').where({ region: live.region }).whereNot({ status: 'disabled' }).first();
    const answer = await edgeRequest(node.edge_http_port as number, siteUrl);
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    expect(answer.body).toMatch(/wp-content|WordPress/);
  });

  it('adds staging and pushes it to production, each shown live to the end', async () => {
    const creation = await page.locator('[data-operation-id]').first().getAttribute('data-operation-id');
    await page.getByLabel('New environment').selectOption('staging');
    await page.getByRole('button', { name: 'Add environment' }).click();
    // a new staging is password-protected; its password is shown once, here
    const notice = page.getByRole('status').filter({ hasText: 'password-protected' });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/User name staging, password [A-Za-z0-9_-]{20}/);
    expect((await watchOperation(240_000, creation)).at(-1)).toBe('succeeded');
    await page.getByRole('link', { name: 'staging' }).first().click();
    await page.getByRole('heading', { name: /staging · Overview/ }).waitFor();
    expect(await page.getByLabel('Protect with a password').isChecked()).toBe(true);
    expect(await page.getByLabel('User name').inputValue()).toBe('staging');
    await audit('environment');
    await page.getByLabel('Copy this environment to').selectOption('production');
    await page.getByRole('button', { name: 'Push' }).click();
    expect((await watchOperation(240_000)).at(-1)).toBe('succeeded');
  });

  it('takes a backup and restores it after the site name is typed, live to the end through a dropped connection, no log line lost or doubled', async () => {
    const push = await page.locator('[data-operation-id]').first().getAttribute('data-operation-id');
    await page.getByRole('link', { name: 'Backups' }).click();
    await page.getByRole('button', { name: 'Back up now' }).click();
    expect((await watchOperation(240_000, push)).at(-1)).toBe('succeeded');
    await audit('backups');
    await keepScreenshot(page, 'backups');
    const backup = await page.locator('[data-operation-id]').first().getAttribute('data-operation-id');
    await page
      .getByRole('button', { name: /^Restore backup of/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: /^Overwrite/ });
    // the destructive button stays off until the site's name is typed exactly
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type .* to confirm/).fill('Panel sho');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type .* to confirm/).fill('Panel shop');
    await confirm.click();
    // the network drops while the restore runs: the page says it is reconnecting, then resumes from
    // its last event, and ends with every log line the operation wrote, none lost and none twice
    const restore = page.locator(`[data-operation-id]:not([data-operation-id="${backup}"])`).first();
    await restore.waitFor();
    dropConnectionsTo(live.baseUrl);
    await page.getByText('reconnecting…').waitFor();
    expect((await watchOperation(300_000, backup)).at(-1)).toBe('succeeded');
    const restoreId = (await restore.getAttribute('data-operation-id'))!;
    const written = Number((await live.db('operation_logs').where({ operation_id: restoreId }).count({ count: '*' }).first())?.count);
    expect(written).toBeGreaterThan(5);
    await expect.poll(() => restore.locator('summary').textContent()).toBe(`Log (${written} lines)`);
  });

  it('adds a custom domain and shows the record that proves it', async () => {
    await page.getByRole('link', { name: 'Domains' }).click();
    await page.getByLabel('Domain name').fill('shop.panel-customer.test');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('shop.panel-customer.test').first().waitFor();
    await audit('domains');
  });

  it('adds an SFTP user and shows how to connect, once', async () => {
    await page.getByRole('link', { name: 'SFTP' }).click();
    await page.getByRole('button', { name: 'Create SFTP user' }).click();
    await page.locator('.sftp-copy').first().waitFor({ timeout: 60_000 });
    await audit('sftp');
    await keepScreenshot(page, 'sftp');
  });

  it('invites a member who joins through Door B from the e-mailed link and signs in', async () => {
    await page.getByRole('link', { name: 'Members & settings' }).click();
    const invitee = `invitee-${Date.now()}@example.test`;
    await page.getByLabel('E-mail', { exact: true }).last().fill(invitee);
    await page.getByRole('button', { name: 'Send invite' }).click();
    await audit('team');
    const mail = await live.mailbox.waitFor(invitee, /./, 90_000);
    const link = /http:\/\/\S+\/accept-invite\?token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    const guest = await panelContext(browser, live.baseUrl);
    const invited = await guest.newPage();
    await invited.goto(link!);
    await invited.getByLabel('Your name').fill('Invited Ivy');
    await invited.getByLabel('E-mail').fill(invitee);
    await invited.getByLabel('Password').fill('a long enough password for ivy');
    await invited.getByRole('button', { name: 'Create account and join' }).click();
    await invited.getByText(/You joined as/).waitFor();
    visited.set('accept-invite', await seriousViolations(invited));
    await invited.getByRole('link', { name: 'Sign in' }).click();
    await invited.getByLabel('E-mail').fill(invitee);
    await invited.getByLabel('Password').fill('a long enough password for ivy');
    const before = live.mailbox.to(invitee).length;
    await invited.getByRole('button', { name: 'Sign in' }).click();
    await invited.getByLabel('Code from the e-mail').fill(await live.deviceCode(invitee, before));
    await invited.getByRole('button', { name: 'Confirm' }).click();
    // the member sees the team's site
    await invited.getByRole('link', { name: 'Panel shop' }).waitFor();
    await guest.close();
  });

  it('a plan chosen without trial gives an invoice the operator marks paid by bank transfer', async () => {
    await page.goto('/billing');
    await page.getByLabel('Start with the free trial where the plan has one').uncheck();
    await page.getByRole('button', { name: 'Choose plan' }).click();
    const invoice = page.locator('a[href^="/billing/invoices/"]').first();
    await invoice.waitFor({ timeout: 90_000 });
    await audit('billing');
    const invoiceNumber = (await invoice.textContent()) ?? '';

    const operator = await live.newOwner();
    await live.db('users').where({ id: operator.userId }).update({ platform_role: 'operator' });
    const staff = await panelContext(browser, live.baseUrl);
    const desk = await staff.newPage();
    await desk.goto('/sign-in');
    await desk.getByLabel('E-mail').fill(operator.email);
    await desk.getByLabel('Password').fill(operator.password);
    const before = live.mailbox.to(operator.email).length;
    await desk.getByRole('button', { name: 'Sign in' }).click();
    await desk.getByLabel('Code from the e-mail').fill(await live.deviceCode(operator.email, before));
    await desk.getByRole('button', { name: 'Confirm' }).click();
    await desk.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await desk.goto('/operator/invoices');
    await desk.getByRole('button', { name: `Mark paid ${invoiceNumber}` }).click();
    await desk.getByRole('dialog').getByLabel('Transfer reference (optional)').fill('BANK-REF-42');
    await desk.getByRole('dialog').getByRole('button', { name: 'Mark paid' }).click();
    await desk.getByRole('dialog').waitFor({ state: 'hidden' });
    visited.set('operator-invoices', await seriousViolations(desk));
    // the rest of the operator's pages, each audited once drawn
    for (const path of ['/operator/nodes', '/operator/teams', '/operator/plans']) {
      await desk.goto(path);
      await desk.locator('h1').first().waitFor();
      await desk.waitForFunction(() => !(globalThis as any).document.querySelector('.loading'));
      visited.set(path, await seriousViolations(desk));
    }
    await staff.close();

    await invoice.click();
    await expect.poll(() => page.locator('.badge').allTextContents(), { timeout: 20_000 }).toContain('paid');
    await audit('invoice');
  });

  it('works at 360 px: the menu opens, nothing scrolls sideways but tables', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Panel shop' }).waitFor();
    await keepScreenshot(page, 'sites');
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Operations' }).click();
    await page.getByRole('heading', { name: 'Operations', level: 1 }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
    await audit('operations-phone');
    await keepScreenshot(page, 'operations-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('registers a new owner through Door A, verifies the address from the e-mailed link, and signs in', async () => {
    const visitor = await panelContext(browser, live.baseUrl);
    const tab = await visitor.newPage();
    const email = `door-a-${Date.now()}@example.test`;
    await tab.goto('/register');
    await tab.getByLabel('Your name').fill('Ann Owner');
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Password').fill('short');
    await tab.getByLabel('Team or company name').fill('Ann writes');
    await tab.getByRole('button', { name: 'Create account' }).click();
    // the API's 422 names the password: the message sits under that field
    const password = tab.getByLabel('Password');
    await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
    visited.set('register-invalid', await seriousViolations(tab));
    await password.fill('a long enough password for ann');
    await tab.getByRole('button', { name: 'Create account' }).click();
    await tab.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const mail = await live.mailbox.waitFor(email, /./, 90_000);
    const link = /http:\/\/\S+\/verify-email\?token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    // opening the link changes nothing; the button verifies
    await tab.goto(link!);
    visited.set('verify-email', await seriousViolations(tab));
    await tab.getByRole('button', { name: 'Verify my e-mail address' }).click();
    await tab.getByRole('link', { name: 'Sign in' }).click();
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Password').fill('a long enough password for ann');
    const before = live.mailbox.to(email).length;
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByLabel('Code from the e-mail').fill(await live.deviceCode(email, before));
    await tab.getByRole('button', { name: 'Confirm' }).click();
    await tab.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();

    // two-factor authentication: the QR code and the key, the backup codes once, a code from
    // OATH Toolkit turns it on; the next sign-in asks for the second factor and takes a backup code
    await tab.goto('/account/security');
    await tab.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await tab.getByRole('img', { name: /QR code/ }).waitFor();
    visited.set('account-security-totp', await seriousViolations(tab));
    const secret = ((await tab.locator('.account-secret').textContent()) ?? '').replace(/\s/g, '');
    const backupCode = ((await tab.getByRole('list', { name: 'Backup codes' }).locator('code').first().textContent()) ?? '').trim();
    await tab.getByLabel('6-digit code').fill(currentCode(secret));
    await tab.getByRole('button', { name: 'Verify and turn on' }).click();
    await expect
      .poll(() =>
        live
          .db('users')
          .where({ email })
          .first()
          .then((user) => user?.totp_enabled_at ?? null),
      )
      .not.toBeNull();
    await tab.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign out' }).click();
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Password').fill('a long enough password for ann');
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('button', { name: 'Use a backup code' }).click();
    visited.set('second-factor', await seriousViolations(tab));
    await tab.getByLabel('Backup code').fill(backupCode);
    await tab.getByRole('button', { name: 'Verify' }).click();
    await tab.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await visitor.close();
  });

  it('resets a forgotten password from the e-mailed link, and the new one signs in', async () => {
    const visitor = await panelContext(browser, live.baseUrl);
    const tab = await visitor.newPage();
    const member = await live.newOwner();
    await tab.goto('/sign-in');
    await tab.getByRole('link', { name: 'Forgot your password?' }).click();
    await tab.getByLabel('E-mail').fill(member.email);
    await tab.getByRole('button', { name: 'Send me a reset link' }).click();
    await tab.getByRole('status').first().waitFor();
    const mail = await live.mailbox.waitFor(member.email, /./, 90_000);
    const link = /http:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    await tab.goto(link!);
    visited.set('reset-password', await seriousViolations(tab));
    await tab.getByLabel('New password').fill('a brand new password for the member');
    await tab.getByRole('button', { name: 'Set the new password' }).click();
    await tab.getByText(/You can sign in with it now/).waitFor();
    await tab.getByRole('link', { name: 'Back to sign-in' }).click();
    await tab.getByLabel('E-mail').fill(member.email);
    await tab.getByLabel('Password').fill('a brand new password for the member');
    const before = live.mailbox.to(member.email).length;
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByLabel('Code from the e-mail').fill(await live.deviceCode(member.email, before));
    await tab.getByRole('button', { name: 'Confirm' }).click();
    await tab.getByRole('heading', { name: 'Sites', level: 1 }).waitFor();
    await visitor.close();
  });

  it('draws every other page of the team and the account, each passing axe', async () => {
    const siteId = /\/sites\/(\d+)/.exec(siteUrlOfPage)?.[1];
    const pages = [
      '/operations',
      '/dns',
      '/team',
      '/team/roles',
      '/team/activity',
      '/webhooks',
      '/billing/profile',
      '/billing/credit-notes',
      '/account',
      '/account/security',
      '/account/api-tokens',
      `/sites/${siteId}/environments/production/wordpress`,
    ];
    for (const path of pages) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      await page.waitForFunction(() => !(globalThis as any).document.querySelector('.loading'));
      await audit(path);
      expect(await page.getByRole('heading', { name: 'Something went wrong' }).count(), path).toBe(0);
    }
  });

  it('streams 100,000 log lines into a view that keeps only the visible ones in the page', async () => {
    const [operation] = await live
      .db('operations')
      .insert({ team_id: owner.teamId, kind: 'site.create', target_type: 'site', target_id: '0', status: 'succeeded', progress: 100, deadline_seconds: 600 })
      .returning('id');
    const id = (operation as { id: string }).id;
    await live.db.raw(
      "INSERT INTO operation_logs (operation_id, step, stream, line) SELECT ?, 'install', 'stdout', 'line ' || n FROM generate_series(1, 100000) AS n",
      [id],
    );
    await page.goto(`/operations/${id}`);
    const summary = page.locator('.operation-log summary');
    await expect.poll(() => summary.textContent(), { timeout: 120_000 }).toBe('Log (100000 lines)');
    await summary.click();
    const log = page.getByRole('log');
    await log.locator('.log-line').first().waitFor();
    expect(await log.getAttribute('data-lines')).toBe('100000');
    expect(await log.locator('.log-line').count()).toBeLessThan(200);
    await log.evaluate((element) => (element.scrollTop = 0));
    await expect.poll(() => log.locator('.log-line').first().textContent()).toMatch(/line 1$/);
    await log.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await expect.poll(() => log.locator('.log-line').last().textContent()).toMatch(/line 100000$/);
    expect(await log.locator('.log-line').count()).toBeLessThan(200);
    await audit('operation-100k-lines');
  });

  it('answers another team’s site with "not found"', async () => {
    const other = await live.newOwner();
    const [site] = await live
      .db('sites')
      .insert({ team_id: other.teamId, name: 'Not yours', slug: `not-yours-${Date.now() % 100000}`, region: live.region, status: 'active' })
      .returning('id');
    await page.goto(`/sites/${(site as { id: number }).id}`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    expect(await page.textContent('body')).not.toContain('Not yours');
  });

  it('has no serious or critical axe violation on any page visited, and no script error', () => {
    const failing = [...visited].filter(([, violations]) => violations.length > 0);
    expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);
    expect(visited.size).toBeGreaterThanOrEqual(5);
    expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  });
});
