import { UsageError } from '../arguments.ts';
import type { CommandContext } from '../context.ts';

/** Destructive commands: `--yes`, or the name typed back at a prompt (as the panel asks for). */
export async function confirmByName(context: CommandContext, name: string, what: string): Promise<void> {
  if (context.args.options.get('yes') === true) return;
  if (!context.terminal.interactive) throw new UsageError(`${what}: add --yes to confirm (stdin is not a terminal)`);
  const typed = await context.terminal.ask(`${what}? Type "${name}" to confirm: `);
  if (typed !== name) throw new UsageError('the name typed does not match: nothing done');
}
