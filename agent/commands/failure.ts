/**
 * A command that ended in failure, with what the worker needs to decide and to show: a message a
 * user can act on, an exit code and stderr tail for execs, and whether retrying could ever help.
 */
export class CommandFailure extends Error {
  readonly permanent: boolean;
  readonly exitCode: number | null;
  readonly stderrTail: string | null;

  constructor(message: string, options: { permanent?: boolean; exitCode?: number | null; stderrTail?: string | null } = {}) {
    super(message);
    this.permanent = options.permanent ?? false;
    this.exitCode = options.exitCode ?? null;
    this.stderrTail = options.stderrTail ?? null;
  }
}
