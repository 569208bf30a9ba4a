import { idArgument, optionOf, UsageError } from '../arguments.ts';
import type { CommandGroup } from '../command.ts';
import { EXIT } from '../exit-codes.ts';
import { watchOperation } from '../operation-watch.ts';
import { table } from '../terminal.ts';
import { confirmByName } from './confirm.ts';

export const sites: CommandGroup = {
  summary: "Your team's WordPress sites",
  commands: {
    list: {
      usage: 'berth sites list',
      summary: 'Every site of your team, newest first',
      help: [],
      async run(context) {
        const berth = context.client();
        const all = [];
        for await (const site of berth.paginate(berth.sites.list, { page_size: 100 })) all.push(site);
        if (context.json) context.terminal.out(JSON.stringify(all));
        else
          context.terminal.out(
            table(
              ['ID', 'NAME', 'SLUG', 'STATUS', 'REGION', 'ENVIRONMENTS'],
              all.map((site) => [site.id, site.name, site.slug, site.status, site.region, site.environments.map((env) => env.kind).join(',')]),
            ),
          );
        return EXIT.ok;
      },
    },
    create: {
      usage: 'berth sites create NAME [--php VERSION] [--region REGION] [--title TITLE] [--admin-user USER] [--admin-email EMAIL] [--no-wait]',
      summary: 'Create a WordPress site and follow it to the end',
      help: [
        '  --php VERSION        Default: the platform default (GET /v1/sites/php-versions)',
        '  --region REGION      Default: any region with room',
        '  --title TITLE        The blog title (default: NAME)',
        '  --admin-user USER    Default: admin',
        '  --admin-email EMAIL  Where the link to set the admin password goes (default: your e-mail)',
        '  --no-wait            Print the operation and return at once',
      ],
      async run(context) {
        const name = context.args.positionals[2];
        if (!name) throw new UsageError('missing the site NAME');
        const berth = context.client();
        const php = optionOf(context.args, 'php') ?? (await berth.sites.listPhpVersions()).default;
        const region = optionOf(context.args, 'region');
        const adminEmail = optionOf(context.args, 'admin-email') ?? (await berth.me.get()).email;
        const created = await berth.sites.create({
          body: {
            name,
            php_version: php,
            ...(region ? { region } : {}),
            wordpress: { title: optionOf(context.args, 'title') ?? name, admin_user: optionOf(context.args, 'admin-user') ?? 'admin', admin_email: adminEmail },
          },
        });
        if (context.args.options.get('no-wait') !== true) await watchOperation(context, berth, created.operation.id, `site ${created.site.id}`);
        const site = await berth.sites.get({ id: created.site.id });
        if (context.json) context.terminal.out(JSON.stringify({ site, operation: created.operation }));
        else context.terminal.out(`Site ${site.id} "${site.name}" ${site.status}: ${site.environments.map((env) => env.url).join(' ')}`);
        return EXIT.ok;
      },
    },
    delete: {
      usage: 'berth sites delete SITE_ID [--yes] [--no-wait]',
      summary: 'Delete a site with all its environments and backups',
      help: ['  --yes      Do not ask to type the site name (needed when stdin is not a terminal)'],
      async run(context) {
        const id = idArgument(context.args.positionals[2], 'SITE_ID');
        const berth = context.client();
        const site = await berth.sites.get({ id });
        await confirmByName(context, site.name, `Delete site ${site.id} and everything in it`);
        const deleted = await berth.sites.delete({ id });
        if (context.args.options.get('no-wait') !== true) await watchOperation(context, berth, deleted.operation.id, `delete site ${id}`);
        if (context.json) context.terminal.out(JSON.stringify(deleted));
        else context.terminal.out(`Site ${id} "${site.name}" deleted`);
        return EXIT.ok;
      },
    },
  },
};
