import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardedFor } from '../../helpers/client.ts';
import { login } from '../../helpers/factories.ts';
import { startStack, type Stack } from '../../helpers/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: false, env: { TRUSTED_PROXIES: 'loopback', RATE_LIMIT_LOGIN: '3/1m', RATE_LIMIT_API: '3/1m' } });
});
afterAll(async () => {
  await stack?.stop();
});

const wrongLoginFrom = (ip: string) => login(stack.client(), { email: 'nobody@example.test', password: 'wrong password' }, forwardedFor(ip));

describe('per-IP limits bucket IPv6 by /64', () => {
  it('counts sign-in attempts from different addresses of one /64 together (RATE_LIMIT_LOGIN=3/1m)', async () => {
    for (const ip of ['2001:db8:a:1::1', '2001:db8:a:1::2', '2001:db8:a:1:ffff:ffff:ffff:ffff']) expect((await wrongLoginFrom(ip)).status, ip).toBe(401);
    const limited = await wrongLoginFrom('2001:0db8:000a:0001:1234:5678:9abc:def0');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limit_exceeded');
    expect((await wrongLoginFrom('2001:db8:a:2::1')).status).toBe(401);
  });

  it('counts an IPv4-mapped address as its IPv4 address, and IPv4 addresses one by one', async () => {
    for (const ip of ['198.51.100.200', '::ffff:198.51.100.200', '198.51.100.200']) expect((await wrongLoginFrom(ip)).status, ip).toBe(401);
    expect((await wrongLoginFrom('::ffff:198.51.100.200')).status).toBe(429);
    expect((await wrongLoginFrom('198.51.100.201')).status).toBe(401);
  });

  it('counts anonymous /v1 requests of one /64 together (RATE_LIMIT_API=3/1m)', async () => {
    for (const ip of ['2001:db8:b:1::a', '2001:db8:b:1::b', '2001:db8:b:1::c'])
      expect((await stack.client().get('/v1/me', forwardedFor(ip))).status, ip).toBe(401);
    expect((await stack.client().get('/v1/me', forwardedFor('2001:db8:b:1::d'))).status).toBe(429);
    expect((await stack.client().get('/v1/me', forwardedFor('2001:db8:b:2::a'))).status).toBe(401);
  });
});
