import { describe, expect, it } from 'vitest';
import { LOG_LINE_MAX_CHARS } from '../../shared/agent-protocol/protocol.ts';
import { likePattern } from '../../shared/domains/logs/environment-logs.ts';
import { decodeLogCursor, encodeLogCursor } from '../../shared/domains/logs/log-cursor.ts';
import { lineTime } from '../../shared/domains/logs/log-times.ts';
import { renderEdgeSite, validateEdgeSite } from '../../shared/wordpress/edge-site.ts';
import { splitLines } from '../../agent/logs/log-follower.ts';

const readAt = new Date('2026-11-28T10:00:00Z');

describe('lineTime', () => {
  it("reads each file's own time", () => {
    expect(lineTime('access', '{"time":"2026-11-28T09:59:58+00:00","status":200}', readAt).toISOString()).toBe('2026-11-28T09:59:58.000Z');
    expect(lineTime('error', '2026/11/28 09:59:57 [warn] 12#12: *1 something', readAt).toISOString()).toBe('2026-11-28T09:59:57.000Z');
    expect(lineTime('php', '[28-Nov-2026 09:59:56 UTC] PHP Warning:  x in /var/www/html/a.php on line 1', readAt).toISOString()).toBe(
      '2026-11-28T09:59:56.000Z',
    );
  });

  it('dates a line without a time, a broken one or one from the future by its reading', () => {
    expect(lineTime('access', 'not json', readAt)).toBe(readAt);
    expect(lineTime('access', '{"time":42}', readAt)).toBe(readAt);
    expect(lineTime('access', '{"time":"garbage"}', readAt)).toBe(readAt);
    expect(lineTime('php', 'PHP Stack trace:', readAt)).toBe(readAt);
    expect(lineTime('php', '[28-Foo-2026 09:59:56 UTC] x', readAt)).toBe(readAt);
    expect(lineTime('php', '[28-Nov-2031 09:59:56 UTC] forged', readAt)).toBe(readAt);
  });
});

describe('log cursors', () => {
  it('round-trip and refuse anything else with a 422', () => {
    const cursor = { time: new Date('2026-11-28T10:00:00.123Z'), id: 42 };
    expect(decodeLogCursor(encodeLogCursor(cursor))).toEqual(cursor);
    for (const bad of [
      '',
      'x',
      Buffer.from('2026-11-28T10:00:00Z|x').toString('base64url'),
      Buffer.from('yesterday|1').toString('base64url'),
      Buffer.from('2026-11-28T10:00:00Z|1|2').toString('base64url'),
    ])
      expect(() => decodeLogCursor(bad)).toThrow(/cursor/);
  });
});

describe('likePattern', () => {
  it("matches the text literally: LIKE's wildcards and escape character escaped", () => {
    expect(likePattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
  });
});

describe('splitLines', () => {
  it('takes complete lines and leaves an unfinished one for later', () => {
    expect(splitLines(Buffer.from('one\ntwo\r\nthr'))).toEqual({ lines: ['one', 'two'], consumed: 9 });
    expect(splitLines(Buffer.from('partial'))).toEqual({ lines: [], consumed: 0 });
  });

  it('cuts a line longer than a record into pieces', () => {
    const long = 'x'.repeat(LOG_LINE_MAX_CHARS * 2 + 5);
    const { lines, consumed } = splitLines(Buffer.from(`${long}\n`));
    expect(lines.map((line) => line.length)).toEqual([LOG_LINE_MAX_CHARS, LOG_LINE_MAX_CHARS, 5]);
    expect(consumed).toBe(long.length + 1);
  });
});

describe('edge site logs', () => {
  const site = { key: 'env-1', hosts: ['a.example.test'], filesRoot: '/srv/sites/env-1/files', fastcgiSocket: '/srv/sites/env-1/run/php-fpm.sock' };

  it('writes its own access (berth_json) and error logs in the site server', () => {
    const config = renderEdgeSite({ ...site, logs: { access: '/var/log/berth/env-1.access.log', error: '/var/log/berth/env-1.error.log' } });
    expect(config).toContain('    access_log /var/log/berth/env-1.access.log berth_json;');
    expect(config).toContain('    error_log /var/log/berth/env-1.error.log warn;');
    expect(renderEdgeSite(site)).not.toContain('access_log');
  });

  it('refuses a log path that could break out of its directive', () => {
    expect(validateEdgeSite({ ...site, logs: { access: '/var/log/a.log; include /etc/x', error: '/var/log/../e.log' } })).toEqual([
      'logs.access: not an absolute path of letters, digits and . _ - /',
      'logs.error: not an absolute path of letters, digits and . _ - /',
    ]);
  });
});
