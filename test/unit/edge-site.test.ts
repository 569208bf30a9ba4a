import { describe, expect, it } from 'vitest';
import { certificateCovers, renderEdgeSite, validateEdgeSite } from '../../shared/wordpress/edge-site.ts';

const site = {
  key: 'env-1',
  hosts: ['www.example.com', 'production-blog.sites.example.net'],
  filesRoot: '/srv/sites/env-1/files',
  fastcgiSocket: '/srv/sites/env-1/run/php-fpm.sock',
};

describe('the edge site config', () => {
  it('serves the hosts and redirects the other names to the first, path and query kept', () => {
    const config = renderEdgeSite({ ...site, redirectHosts: ['example.com', 'shop.example.com'] });
    expect(config).toContain('server_name www.example.com production-blog.sites.example.net;');
    expect(config).toContain('server_name example.com shop.example.com;');
    expect(config).toContain('location / { return 301 http://www.example.com$request_uri; }');
    expect(config.match(/server \{/g)).toHaveLength(2);
    expect(renderEdgeSite(site).match(/server \{/g)).toHaveLength(1);
  });

  it('serves HTTPS on 443 with the certificate when given one', () => {
    const config = renderEdgeSite({
      ...site,
      tls: { certificate: '/etc/nginx/berth/certs/env-1.crt', key: '/etc/nginx/berth/certs/env-1.key', names: ['www.example.com'] },
    });
    expect(config).toContain('listen 443 ssl;');
    expect(config).toContain('ssl_certificate /etc/nginx/berth/certs/env-1.crt;');
    expect(config).toContain('ssl_certificate_key /etc/nginx/berth/certs/env-1.key;');
    expect(renderEdgeSite(site)).not.toContain('443');
    expect(validateEdgeSite({ ...site, tls: { certificate: '/x.crt; include /etc/passwd', key: '/x.key', names: [] } })).toEqual([
      expect.stringContaining('tls.certificate'),
    ]);
  });

  it('refuses a redirect name that could break out of its directive', () => {
    expect(validateEdgeSite({ ...site, redirectHosts: ['evil.com; return 200 x'] })).toEqual([expect.stringContaining('is not a lower-case DNS name')]);
    expect(validateEdgeSite({ ...site, hosts: ['*.example.com'], redirectHosts: ['example.com'] })).toEqual([expect.stringContaining('wildcard')]);
  });

  const tls = { certificate: '/etc/nginx/berth/certs/env-1.crt', key: '/etc/nginx/berth/certs/env-1.key', names: ['www.example.com', '*.example.com'] };

  it('answers an alias the certificate covers over TLS too, with the redirect to the primary', () => {
    const config = renderEdgeSite({ ...site, tls, redirectHosts: ['shop.example.com', 'other.test'] });
    const covered = config.slice(config.indexOf('server_name shop.example.com;') - 400);
    expect(config).toMatch(/listen 443 ssl;[^}]*server_name shop\.example\.com;/s);
    expect(covered).toContain('return 301 $scheme://www.example.com$request_uri;');
    // an alias the certificate does not cover stays on plain HTTP: its handshake is refused by the default server
    expect(config).toMatch(/server \{\n {4}listen 80;\n {4}listen \[::\]:80;\n {4}server_name other\.test;/);
  });

  it('forces HTTPS: HTTP answers ACME challenges and 301 to https, HTTPS sends HSTS', () => {
    const config = renderEdgeSite({ ...site, tls, forceHttps: true, hstsMaxAgeSeconds: 31_536_000, acmeChallengeRoot: '/etc/nginx/berth/acme' });
    const [plain, secure] = config.split('listen 443 ssl;');
    expect(plain).toContain('location ^~ /.well-known/acme-challenge/');
    expect(plain).toContain('location / { return 301 https://www.example.com$request_uri; }');
    expect(plain).not.toContain('fastcgi_pass');
    expect(secure).toContain('add_header Strict-Transport-Security "max-age=31536000" always;');
    expect(secure).toContain('fastcgi_pass');
    expect(renderEdgeSite({ ...site, tls, forceHttps: true })).not.toContain('Strict-Transport-Security');
    expect(renderEdgeSite({ ...site, tls, hstsMaxAgeSeconds: 600 })).not.toContain('Strict-Transport-Security');
    expect(validateEdgeSite({ ...site, forceHttps: true })).toEqual(['forceHttps: needs tls']);
    expect(validateEdgeSite({ ...site, tls, hstsMaxAgeSeconds: -1 })).toEqual([expect.stringContaining('hstsMaxAgeSeconds')]);
  });

  it('protects the site with basic auth, except ACME challenges and probes carrying the token', () => {
    const token = 'ab'.repeat(16);
    const config = renderEdgeSite({ ...site, basicAuth: { userFile: '/etc/nginx/berth/sites/env-1.htpasswd' }, probeToken: token, acmeChallengeRoot: '/a' });
    expect(config).toContain(`map $http_x_berth_probe $berth_realm_env_1 {\n    default "Protected site";\n    "${token}" off;\n}`);
    expect(config).toContain('auth_basic $berth_realm_env_1;');
    expect(config).toContain('auth_basic_user_file /etc/nginx/berth/sites/env-1.htpasswd;');
    expect(config).toMatch(/acme-challenge\/ \{[^}]*auth_basic off;/s);
    expect(validateEdgeSite({ ...site, probeToken: 'x"; }' })).toEqual([expect.stringContaining('probeToken')]);
    expect(validateEdgeSite({ ...site, key: 'env-1 { }' })).toEqual([expect.stringContaining('key')]);
  });

  it('matches certificate names like a TLS client: a wildcard covers one label more, no more', () => {
    expect(certificateCovers(['*.example.com'], 'shop.example.com')).toBe(true);
    expect(certificateCovers(['*.example.com'], 'a.shop.example.com')).toBe(false);
    expect(certificateCovers(['*.example.com'], 'example.com')).toBe(false);
    expect(certificateCovers(['example.com'], 'example.com')).toBe(true);
  });
});
