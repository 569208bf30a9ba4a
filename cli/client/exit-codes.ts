/**
 * What `berth` exits with, so a script can tell failures apart without reading the output. Listed in
 * `berth --help`; a new cause gets a new number, an existing one never changes meaning.
 */
export const EXIT = {
  ok: 0,
  /** Something the CLI did not expect (a bug, or an answer it cannot read). */
  unexpected: 1,
  /** The command line is wrong: unknown command, missing argument, bad flag. */
  usage: 2,
  /** Not signed in, or the stored token is no longer valid: run `berth login`. */
  unauthenticated: 3,
  /** Signed in, but the token's role or grants do not allow it. */
  forbidden: 4,
  /** No such site, environment, backup or operation in your team. */
  notFound: 5,
  /** The API refused the input (422); the fields are printed. */
  invalid: 6,
  /** The operation ran and failed, or was cancelled. */
  operationFailed: 7,
  /** It conflicts with the current state (409), or the plan has no room (402). */
  conflict: 8,
  /** The API could not be reached, or kept answering 429/5xx after the retries. */
  unavailable: 9,
} as const;
