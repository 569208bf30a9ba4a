import { environmentArgument, idArgument, optionOf, UsageError } from '../arguments.ts';
import type { CommandGroup } from '../command.ts';
import { EXIT } from '../exit-codes.ts';
import { watchOperation } from '../operation-watch.ts';
import { table } from '../terminal.ts';

export const envs: CommandGroup = {
  summary: "A site's environments: production, staging, development",
  commands: {
    list: {
      usage: 'berth envs list SITE_ID',
      summary: "A site's environments",
      help: [],
      async run(context) {
        const berth = context.client();
        const environments = (await berth.environments.list({ id: idArgument(context.args.positionals[2], 'SITE_ID') })).data;
        if (context.json) context.terminal.out(JSON.stringify(environments));
        else
          context.terminal.out(
            table(
              ['KIND', 'STATUS', 'PHP', 'URL'],
              environments.map((env) => [env.kind, env.status, env.php_version, env.url]),
            ),
          );
        return EXIT.ok;
      },
    },
    push: {
      usage: 'berth envs push SITE_ID FROM TO [--no-files] [--no-database] [--no-wait]',
      summary: 'Copy one environment onto another (production is backed up first)',
      help: ["  --no-files      Keep the target's files", "  --no-database   Keep the target's database", 'Example: berth envs push 12 staging production'],
      async run(context) {
        const { positionals, options } = context.args;
        const id = idArgument(positionals[2], 'SITE_ID');
        const from = environmentArgument(positionals[3]);
        const to = environmentArgument(positionals[4]);
        const berth = context.client();
        const pushed = await berth.environments.push({
          id,
          env: from,
          body: { target: to, files: options.get('no-files') !== true, database: options.get('no-database') !== true },
        });
        const operation =
          options.get('no-wait') === true ? pushed.operation : await watchOperation(context, berth, pushed.operation.id, `push ${from} → ${to}`);
        if (context.json) context.terminal.out(JSON.stringify(operation));
        else context.terminal.out(`Pushed ${from} onto ${to} of site ${id} (operation ${operation.id} ${operation.status})`);
        return EXIT.ok;
      },
    },
    clone: {
      usage: 'berth envs clone SITE_ID KIND [--from ENV] [--no-wait]',
      summary: 'Add a staging or development environment as a copy of another',
      help: ['  KIND         staging or development', '  --from ENV   The environment to copy (default: production)'],
      async run(context) {
        const { positionals, options } = context.args;
        const id = idArgument(positionals[2], 'SITE_ID');
        const kind = environmentArgument(positionals[3]);
        const source = environmentArgument(optionOf(context.args, 'from') ?? 'production');
        const berth = context.client();
        if (kind === 'production') throw new UsageError('production comes with the site: clone to staging or development');
        const created = await berth.environments.create({ id, body: { kind, source } });
        if (options.get('no-wait') !== true) await watchOperation(context, berth, created.operation.id, `clone ${source} → ${kind}`);
        const environment = await berth.environments.get({ id, env: kind });
        if (context.json) context.terminal.out(JSON.stringify(environment));
        else context.terminal.out(`${kind} of site ${id} ${environment.status}: ${environment.url}`);
        return EXIT.ok;
      },
    },
  },
};
