import type { CommandContext } from './context.ts';

/** One `berth <group> <verb>`: its help text and what it does; answers the exit code. */
export type Command = {
  usage: string;
  summary: string;
  /** Lines of `--help` after the usage: arguments, options, an example. */
  help: string[];
  run(context: CommandContext): Promise<number>;
};

export type CommandGroup = { summary: string; commands: Record<string, Command> };
