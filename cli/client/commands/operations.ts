import { UsageError } from '../arguments.ts';
import type { Command, CommandGroup } from '../command.ts';
import { EXIT } from '../exit-codes.ts';
import { watchOperation } from '../operation-watch.ts';
import { table } from '../terminal.ts';

function operationId(value: string | undefined): string {
  if (!value) throw new UsageError('missing the OPERATION_ID');
  return value;
}

export const ops: CommandGroup = {
  summary: 'Long work (site creation, backups, pushes...): its progress, steps and logs',
  commands: {
    list: {
      usage: 'berth ops list',
      summary: "The team's latest operations",
      help: [],
      async run(context) {
        const page = await context.client().operations.list({ page_size: 50 });
        if (context.json) context.terminal.out(JSON.stringify(page.data));
        else
          context.terminal.out(
            table(
              ['ID', 'KIND', 'STATUS', 'PROGRESS', 'CREATED'],
              page.data.map((op) => [op.id, op.kind, op.status, `${op.progress}%`, op.created_at]),
            ),
          );
        return EXIT.ok;
      },
    },
    watch: {
      usage: 'berth ops watch OPERATION_ID',
      summary: 'Follow an operation to its end with a progress bar and its step names',
      help: ['Exits 0 when it succeeded, 7 when it failed or was cancelled (the failed step and reason are printed).'],
      async run(context) {
        const berth = context.client();
        const operation = await watchOperation(context, berth, operationId(context.args.positionals[2]), 'operation');
        if (context.json) context.terminal.out(JSON.stringify(operation));
        else
          context.terminal.out(
            table(
              ['STEP', 'STATUS'],
              operation.steps.map((step) => [step.name, step.status]),
            ),
          );
        return EXIT.ok;
      },
    },
  },
};

export const logs: Command = {
  usage: 'berth logs OPERATION_ID',
  summary: "An operation's log lines (its last 50), each with its step",
  help: ['Berth keeps logs per operation; site access and error logs are not in the API yet.'],
  async run(context) {
    const operation = await context.client().operations.get({ id: operationId(context.args.positionals[1]) });
    if (context.json) context.terminal.out(JSON.stringify(operation.logs));
    else for (const line of operation.logs) context.terminal.out(`${line.created_at} ${line.step ?? '-'} ${line.stream}: ${line.line}`);
    return EXIT.ok;
  },
};
