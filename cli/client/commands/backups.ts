import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { environmentArgument, idArgument, optionOf, UsageError } from '../arguments.ts';
import type { CommandGroup } from '../command.ts';
import type { CommandContext } from '../context.ts';
import { EXIT } from '../exit-codes.ts';
import { watchOperation } from '../operation-watch.ts';
import { table } from '../terminal.ts';
import { confirmByName } from './confirm.ts';

/** SITE_ID ENV [BACKUP_ID] from the line, checked. */
function where(context: CommandContext, withBackup: boolean) {
  const [, , site, env, backup] = context.args.positionals;
  if (withBackup && !backup) throw new UsageError('missing the BACKUP_ID');
  return { id: idArgument(site, 'SITE_ID'), env: environmentArgument(env), backup: backup ?? '' };
}

export const backups: CommandGroup = {
  summary: "An environment's backups",
  commands: {
    list: {
      usage: 'berth backups list SITE_ID ENV',
      summary: 'Backups of an environment, newest first',
      help: [],
      async run(context) {
        const { id, env } = where(context, false);
        const berth = context.client();
        const all = [];
        for await (const backup of berth.paginate(berth.backups.list, { id, env, page_size: 100 })) all.push(backup);
        if (context.json) context.terminal.out(JSON.stringify(all));
        else
          context.terminal.out(
            table(
              ['ID', 'STATUS', 'KIND', 'SIZE', 'CREATED', 'NOTE'],
              all.map((backup) => [backup.id, backup.status, backup.kind, backup.size_bytes, backup.created_at, backup.note]),
            ),
          );
        return EXIT.ok;
      },
    },
    create: {
      usage: 'berth backups create SITE_ID ENV [--note TEXT] [--no-wait]',
      summary: 'Back an environment up now',
      help: ['  --note TEXT   A label, e.g. "before the theme update"'],
      async run(context) {
        const { id, env } = where(context, false);
        const berth = context.client();
        const note = optionOf(context.args, 'note');
        const taken = await berth.backups.create({ id, env, body: note ? { note } : {} });
        if (context.args.options.get('no-wait') !== true) await watchOperation(context, berth, taken.operation.id, `backup ${taken.backup.id}`);
        const backup = await berth.backups.get({ id, env, backup: taken.backup.id });
        if (context.json) context.terminal.out(JSON.stringify(backup));
        else context.terminal.out(`Backup ${backup.id} of ${env} ${backup.status}`);
        return EXIT.ok;
      },
    },
    restore: {
      usage: 'berth backups restore SITE_ID ENV BACKUP_ID [--target ENV] [--yes] [--no-wait]',
      summary: 'Restore a backup onto its environment or another of the site',
      help: ['  --target ENV   Restore onto this environment (default: the one backed up)', '  --yes          Do not ask to type the site name'],
      async run(context) {
        const { id, env, backup } = where(context, true);
        const target = optionOf(context.args, 'target');
        const berth = context.client();
        const site = await berth.sites.get({ id });
        await confirmByName(context, site.name, `Replace ${target ?? env} of site ${id} with backup ${backup}`);
        const restored = await berth.backups.restore({ id, env, backup, body: target ? { target: environmentArgument(target) } : {} });
        if (context.args.options.get('no-wait') !== true) await watchOperation(context, berth, restored.operation.id, `restore ${backup}`);
        if (context.json) context.terminal.out(JSON.stringify(restored));
        else context.terminal.out(`Backup ${backup} restored onto ${target ?? env} of site ${id}`);
        return EXIT.ok;
      },
    },
    download: {
      usage: 'berth backups download SITE_ID ENV BACKUP_ID [--output FILE]',
      summary: 'Download a backup as a .tar.zst (files and database dump)',
      help: ['  --output FILE   Where to write it (default: backup-BACKUP_ID.tar.zst; - for stdout)'],
      async run(context) {
        const { id, env, backup } = where(context, true);
        const output = optionOf(context.args, 'output') ?? `backup-${backup}.tar.zst`;
        const response = await context.client().backups.download({ id, env, backup });
        if (!response.body) throw new Error('the download answered no body');
        const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
        if (output === '-') await pipeline(body, process.stdout);
        else {
          // Written beside the target and renamed once whole: a cut download leaves no truncated archive.
          const partial = `${output}.partial`;
          await pipeline(body, fs.createWriteStream(partial, { mode: 0o600 }));
          fs.renameSync(partial, output);
          const bytes = fs.statSync(output).size;
          if (context.json) context.terminal.out(JSON.stringify({ file: output, bytes }));
          else context.terminal.err(`Backup ${backup} written to ${output} (${bytes} bytes)\n`);
        }
        return EXIT.ok;
      },
    },
  },
};
