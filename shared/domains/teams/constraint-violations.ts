/**
 * The constraint a Postgres error violated, when it is of the given class (`23505` unique,
 * `23503` foreign key). Objection wraps the driver's error: the SQLSTATE may be on nativeError.
 */
export function violatedConstraint(error: unknown, sqlState: '23505' | '23503'): string | undefined {
  const { code, constraint, nativeError } = (error ?? {}) as { code?: string; constraint?: string; nativeError?: { code?: string; constraint?: string } };
  if ((code ?? nativeError?.code) !== sqlState) return undefined;
  return constraint ?? nativeError?.constraint ?? '';
}
