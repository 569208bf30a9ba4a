/** An operation a page started and shows with <OperationProgress>: its id and what to call it. */
export type StartedOperation = { id: string; title: string };
