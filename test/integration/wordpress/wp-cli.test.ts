import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Operation } from '../../../shared/db/models.ts';
import { bearer } from '../../helpers/client.ts';
import { expectV1Error } from '../../helpers/expect-error.ts';
import { accessTokenOf } from '../../helpers/factories.ts';
import { execChecked, operationOutcome, operationSucceeded, runHelper } from '../../helpers/site-node.ts';
import { addMember } from '../../helpers/team-members.ts';
import { startTwoSites, type TwoSites } from '../../helpers/two-sites.ts';

/**
 * WP-CLI and search-replace as operations on a real node: two teams' sites, commands run in site
 * a's container through the API (the image carries no real `wp`: Berth's subset answers).
 */
let sites: TwoSites;

beforeAll(async () => {
  sites = await startTwoSites('wp-cli');
}, 600_000);

afterAll(async () => {
  await sites?.stop();
}, 60_000);

const base = (who: 'a' | 'b') => `/v1/sites/${sites[who].id}/environments/production`;
const wp = (command: string, as: 'a' | 'b' = 'a', extra: Record<string, unknown> = {}) =>
  sites.stack.client().post(`${base('a')}/wp-cli`, { command, ...extra }, sites.bearer(as));
const searchReplace = (body: Record<string, unknown>) => sites.stack.client().post(`${base('a')}/search-replace`, body, sites.bearer('a'));
const succeeded = (reply: { status: number; body: any }) => operationSucceeded(sites.stack, sites.token('a'), reply);
const failed = async (reply: { status: number; body: any }) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  const outcome = await operationOutcome(sites.stack, sites.token('a'), reply.body.data.operation.id);
  expect(outcome.status).toBe('failed');
  return outcome;
};
/** The operation's log lines, all of them (the API shows the last 50). */
const logsOf = (outcome: Record<string, any>): Promise<Array<{ step: string; stream: string; line: string }>> =>
  sites.stack.ctx.db('operation_logs').where({ operation_id: outcome.id }).orderBy('id').select('step', 'stream', 'line');
const stdoutOf = async (outcome: Record<string, any>) => (await logsOf(outcome)).filter((l) => l.step === 'run' && l.stream === 'stdout').map((l) => l.line);
const helper = (command: Parameters<typeof runHelper>[1], input: Record<string, unknown> = {}) => runHelper(sites.a.container, command, input);
const operationCount = () => Operation.query(sites.stack.ctx.db).whereIn('kind', ['wordpress.cli', 'wordpress.search_replace']).resultSize();

describe('WP-CLI as operations', () => {
  it("runs `plugin list --format=json` in the environment's container: its JSON in the operation's log, exit 0 in the result, no purge", async () => {
    const outcome = await succeeded(await wp('plugin list --format=json'));
    expect(outcome.kind).toBe('wordpress.cli');
    expect(outcome.result).toMatchObject({ exit_code: 0, runner: 'berth-subset' });
    const plugins = JSON.parse((await stdoutOf(outcome)).join('\n')) as Array<{ name: string; status: string }>;
    expect(plugins).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'akismet', status: 'inactive', update: 'none' })]));
    expect(outcome.steps.map((s: { name: string }) => s.name)).toEqual(['run', 'inventory', 'purge_cache']);
    expect(outcome.logs.some((l: { line: string }) => l.line.includes('read-only command'))).toBe(true);
  });

  it('activates and deactivates a plugin: WordPress state changes, WP-CLI messages logged, cache purged', async () => {
    const on = await succeeded(await wp("wp plugin activate 'akismet'"));
    expect(await stdoutOf(on)).toEqual(["Plugin 'akismet' activated.", 'Success: Activated 1 of 1 plugins.']);
    expect((await helper('plugin-list')).plugins).toEqual(expect.arrayContaining([expect.objectContaining({ slug: 'akismet', active: true })]));
    // the inventory was read again: the API shows what WordPress now runs
    const listed = await sites.stack.client().get(`${base('a')}/plugins?page_size=100`, sites.bearer('a'));
    expect(listed.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ slug: 'akismet', active: true })]));
    expect(on.logs.some((l: { step: string; line: string }) => l.step === 'purge_cache' && l.line.includes('cached page(s) removed'))).toBe(true);
    const again = await succeeded(await wp('plugin activate akismet'));
    expect(await stdoutOf(again)).toEqual(['Success: Plugin already activated.']);
    expect((await logsOf(again)).filter((l) => l.stream === 'stderr').map((l) => l.line)).toEqual(["Warning: Plugin 'akismet' is already active."]);
    const missing = await failed(await wp('plugin activate berth-no-such-plugin'));
    expect(missing.error).toMatchObject({ step: 'run', exit_code: 1 });
    expect((await logsOf(missing)).filter((l) => l.stream === 'stderr').map((l) => l.line)).toEqual(
      expect.arrayContaining(["Warning: The 'berth-no-such-plugin' plugin could not be found.", 'Error: No plugins activated.']),
    );
    const off = await succeeded(await wp('plugin deactivate akismet'));
    expect(await stdoutOf(off)).toEqual(["Plugin 'akismet' deactivated.", 'Success: Deactivated 1 of 1 plugins.']);
    expect((await helper('plugin-list')).plugins).toEqual(expect.arrayContaining([expect.objectContaining({ slug: 'akismet', active: false })]));
  });

  it('reads and updates an option, quoted values kept whole', async () => {
    expect(await stdoutOf(await succeeded(await wp('option get blogname')))).toEqual(['Tenant A']);
    // blogname would be sanitized by WordPress (esc_html), as with the real WP-CLI: another option keeps the quotes
    expect(await stdoutOf(await succeeded(await wp(`option update berth_quoted "Tenant A's \\"blog\\""`)))).toEqual([
      "Success: Updated 'berth_quoted' option.",
    ]);
    expect((await helper('option-get', { name: 'berth_quoted' })).value).toBe(`Tenant A's "blog"`);
    expect((await stdoutOf(await succeeded(await wp('core version'))))[0]).toMatch(/^\d+\.\d+/);
  });

  it('fails step run permanently with the exit code when the command fails, Error: on stderr', async () => {
    const outcome = await failed(await wp('option get berth_no_such_option'));
    expect(outcome.error).toMatchObject({ step: 'run', exit_code: 1, message: expect.stringContaining('wp option get berth_no_such_option exited with 1') });
    expect(outcome.attempts).toBe(1);
    expect(outcome.logs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ step: 'run', stream: 'stderr', line: "Error: Could not get 'berth_no_such_option' option. Does it exist?" }),
      ]),
    );
  });

  it('caps the output in the log at 400 lines, then one line saying what was dropped', async () => {
    await helper('option-set', { name: 'berth_long_option', value: Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n') });
    const outcome = await succeeded(await wp('option get berth_long_option'));
    const lines = await stdoutOf(outcome);
    expect(lines).toHaveLength(400);
    expect(lines.at(-1)).toBe('line 399');
    expect((await logsOf(outcome)).filter((l) => l.line.startsWith('output capped at 400 lines'))).toEqual([
      expect.objectContaining({ step: 'run', stream: 'stderr', line: expect.stringContaining('100 more line(s)') }),
    ]);
  });

  it('refuses dangerous, empty and unknown commands with 422 naming why, and starts no operation', async () => {
    const before = await operationCount();
    for (const [command, why] of [
      ['db drop --yes', /`wp db drop` is refused/],
      ['db export -', /`wp db export` is refused/],
      ['config set DB_HOST x', /`wp config set` is refused/],
      ['core download --force', /`wp core download` is refused/],
      ["eval 'phpinfo();'", /`wp eval` is refused: it runs arbitrary PHP/],
      ['option get blogname --exec=phpinfo();', /--exec is refused/],
      ['option get blogname --url=other.test', /--url is refused/],
      ['', /empty/],
      ['post list', /not in Berth's WP-CLI subset/],
    ] as const) {
      const reply = await wp(command);
      expectV1Error(reply, 422, 'VALIDATION_ERROR');
      expect(JSON.stringify(reply.body.error), command).toMatch(why);
    }
    expectV1Error(await sites.stack.client().post(`${base('a')}/wp-cli`, {}, sites.bearer('a')), 422, 'VALIDATION_ERROR');
    expectV1Error(await wp('core version', 'a', { timeout_seconds: 901 }), 422, 'VALIDATION_ERROR');
    expect(await operationCount()).toBe(before);
  });

  it("answers 404 for another team's site and 403 to a viewer", async () => {
    const before = await operationCount();
    expectV1Error(await wp('core version', 'b'), 404, 'NOT_FOUND');
    expectV1Error(await sites.stack.client().post(`${base('a')}/search-replace`, { search: 'a', replace: 'b' }, sites.bearer('b')), 404, 'NOT_FOUND');
    const viewer = await addMember(sites.stack.ctx.db, sites.owners.a, 'viewer');
    const token = await accessTokenOf(sites.stack.client(), viewer);
    expectV1Error(await sites.stack.client().post(`${base('a')}/wp-cli`, { command: 'core version' }, bearer(token)), 403, 'AUTHORIZATION_ERROR', {
      permission: 'wordpress:cli',
    });
    expectV1Error(await sites.stack.client().post(`${base('a')}/search-replace`, { search: 'a', replace: 'b' }, bearer(token)), 403, 'AUTHORIZATION_ERROR', {
      permission: 'wordpress:search_replace',
    });
    expect(await operationCount()).toBe(before);
  });
});

describe('search-replace as an operation', () => {
  const demo = { url: 'http://old-marker.test/page', list: ['http://old-marker.test/a', { deep: 'http://old-marker.test/b' }], n: 3 };
  const replaced = {
    url: 'https://a-much-longer-new-marker.test/page',
    list: ['https://a-much-longer-new-marker.test/a', { deep: 'https://a-much-longer-new-marker.test/b' }],
    n: 3,
  };

  it('counts per table on a dry run (the default) and changes nothing; then applies, the serialized option still valid', async () => {
    await helper('option-set', { name: 'berth_sr_demo', value: demo });
    const body = { search: 'http://old-marker.test', replace: 'https://a-much-longer-new-marker.test' };
    const dry = await succeeded(await searchReplace(body));
    expect(dry.kind).toBe('wordpress.search_replace');
    expect(dry.input.dry_run).toBe(true);
    expect(dry.result).toMatchObject({ dry_run: true, rows_changed: 1, cells_changed: 1 });
    expect(dry.result.tables).toEqual(expect.arrayContaining([expect.objectContaining({ table: 'wp_options', rows_changed: 1, cells_changed: 1 })]));
    expect(dry.logs.some((l: { line: string }) => l.line === 'wp_options: 1 value(s) in 1 row(s) would change')).toBe(true);
    // unchanged: the value as it was, and the same search still finds the same
    expect((await helper('option-get', { name: 'berth_sr_demo' })).value).toEqual(demo);
    expect(await helper('search-replace', { old: body.search, new: body.replace, dry_run: true })).toMatchObject({ rows_changed: 1, cells_changed: 1 });

    const applied = await succeeded(await searchReplace({ ...body, dry_run: false, tables: ['wp_options'] }));
    expect(applied.result).toMatchObject({ dry_run: false, rows_changed: 1, cells_changed: 1, invalid_values: 0 });
    expect(applied.result.tables).toEqual([expect.objectContaining({ table: 'wp_options' })]);
    // WordPress unserializes it: the lengths were rewritten
    expect((await helper('option-get', { name: 'berth_sr_demo' })).value).toEqual(replaced);
  });

  it("fails permanently for a table that is not the site's own, changing nothing", async () => {
    const outcome = await failed(
      await searchReplace({ search: 'a-much-longer-new-marker', replace: 'x', dry_run: false, tables: ['wp_options', 'mysql_user'] }),
    );
    expect(outcome.error).toMatchObject({ step: 'replace', message: expect.stringContaining('not tables of this site (prefix wp_): mysql_user') });
    expect(outcome.attempts).toBe(1);
    expect((await helper('option-get', { name: 'berth_sr_demo' })).value).toEqual(replaced);
  });

  it('runs the subset search-replace through wp-cli too, a dry run saying what it would make', async () => {
    const outcome = await succeeded(await wp('search-replace a-much-longer-new-marker.test other.test --dry-run --format=csv'));
    const lines = await stdoutOf(outcome);
    expect(lines[0]).toBe('Table,Replacements,Rows');
    expect(lines).toContain('wp_options,1,1');
    expect(lines.at(-1)).toBe('Success: 1 replacements to be made.');
    expect((await helper('option-get', { name: 'berth_sr_demo' })).value).toEqual(replaced);
  });
});

describe('an image with a real wp', () => {
  /** A stand-in for WP-CLI's phar: prints each argument it gets; `slow` makes it outlast its timeout. */
  const fakeWp = ['#!/bin/sh', 'for a in "$@"; do printf "arg:%s\\n" "$a"; done', 'case " $* " in *" slow "*) exec sleep 60;; esac', 'exit 0', ''].join('\n');

  it('runs it instead of the subset, argv as split (no shell), stopped at timeout_seconds', async () => {
    await execChecked(sites.a.container, ['sh', '-c', 'printf %s "$SCRIPT" > /usr/local/bin/wp && chmod 755 /usr/local/bin/wp'], { SCRIPT: fakeWp });
    try {
      const outcome = await succeeded(await wp(`option get 'two words;$HOME' "x|y"`));
      expect(outcome.result).toMatchObject({ exit_code: 0, runner: 'wp' });
      expect(await stdoutOf(outcome)).toEqual(['arg:--path=/var/www/html', 'arg:option', 'arg:get', 'arg:two words;$HOME', 'arg:x|y']);
      const started = Date.now();
      const slow = await failed(await wp('option get slow', 'a', { timeout_seconds: 2 }));
      expect(slow.error).toMatchObject({ step: 'run', exit_code: 124, message: expect.stringContaining('wp option get slow timed out after 2 s') });
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      await execChecked(sites.a.container, ['rm', '-f', '/usr/local/bin/wp']);
    }
  });
});
