import { describe, expect, it } from 'vitest';
import { renderEdgeSite, validateEdgeSite } from '../../shared/wordpress/edge-site.ts';

const site = {
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
    const config = renderEdgeSite({ ...site, tls: { certificate: '/etc/nginx/berth/certs/env-1.crt', key: '/etc/nginx/berth/certs/env-1.key' } });
    expect(config).toContain('listen 443 ssl;');
    expect(config).toContain('ssl_certificate /etc/nginx/berth/certs/env-1.crt;');
    expect(config).toContain('ssl_certificate_key /etc/nginx/berth/certs/env-1.key;');
    expect(renderEdgeSite(site)).not.toContain('443');
    expect(validateEdgeSite({ ...site, tls: { certificate: '/x.crt; include /etc/passwd', key: '/x.key' } })).toEqual([
      expect.stringContaining('tls.certificate'),
    ]);
  });

  it('refuses a redirect name that could break out of its directive', () => {
    expect(validateEdgeSite({ ...site, redirectHosts: ['evil.com; return 200 x'] })).toEqual([expect.stringContaining('is not a lower-case DNS name')]);
    expect(validateEdgeSite({ ...site, hosts: ['*.example.com'], redirectHosts: ['example.com'] })).toEqual([expect.stringContaining('wildcard')]);
  });
});
