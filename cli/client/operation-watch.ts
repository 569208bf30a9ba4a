import type { Berth, OperationDetail } from '../../sdk/typescript/src/index.ts';
import type { CommandContext } from './context.ts';
import { progressBar } from './terminal.ts';

/** The step running now, else the last that ended: what a progress line names. */
function currentStep(operation: OperationDetail): string {
  const running = operation.steps.find((step) => step.status === 'running');
  const done = operation.steps.filter((step) => step.status !== 'pending');
  return running?.name ?? done.at(-1)?.name ?? operation.status;
}

/**
 * Follows an operation to its end with a progress bar on stderr (one redrawn line on a terminal, a
 * line per change otherwise, so logs of CI jobs show each step). Throws OperationFailedError.
 */
export async function watchOperation(context: CommandContext, berth: Berth, id: string, label: string): Promise<OperationDetail> {
  const { terminal } = context;
  let lastLine = '';
  const finished = await berth
    .waitForOperation(id, {
      onProgress: (operation) => {
        const line = `${label}: ${progressBar(operation.progress, currentStep(operation))}`;
        if (line === lastLine) return;
        lastLine = line;
        terminal.err(terminal.interactive ? `\r\x1b[2K${line}` : `${line}\n`);
      },
    })
    .finally(() => {
      if (terminal.interactive && lastLine) terminal.err('\n');
    });
  return finished;
}
