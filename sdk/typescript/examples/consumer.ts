// A script outside the package, as a user writes it: the package's tests type-check it against the packed @berth/sdk.
import { Berth, BerthError, OperationFailedError, ValidationError, type Page, type Site } from '@berth/sdk';

export async function consumer(): Promise<void> {
  const berth = new Berth({ baseUrl: 'https://berth.example.com', token: 'berth_pat_example' });

  const { site, operation } = await berth.sites.create({
    body: { name: 'Shop', php_version: '8.3', wordpress: { title: 'Shop', admin_user: 'admin', admin_email: 'admin@example.com' } },
  });
  try {
    await berth.waitForOperation(operation.id, { onProgress: (current) => console.log(current.status, current.progress) });
  } catch (error) {
    if (error instanceof OperationFailedError) console.log(error.step, error.reason);
  }

  const page: Page<Site> = await berth.sites.list();
  console.log(page.pagination.total_pages, site.id);
  for await (const each of berth.paginate(berth.sites.list)) console.log(each.name);

  const download = await berth.backups.download({ id: site.id, env: 'production', backup: 'b' });
  console.log(download.headers.get('content-type'));

  try {
    await berth.sites.get({ id: site.id }, { idempotencyKey: 'unused-on-get' });
  } catch (error) {
    if (error instanceof ValidationError) console.log(error.fields);
    else if (error instanceof BerthError) console.log(error.status, error.code, error.requestId, error.details.reason);
  }

  // @ts-expect-error a site id is required
  await berth.sites.get({});
  // @ts-expect-error the plugins of which site and environment?
  berth.paginate(berth.plugins.list);
}
