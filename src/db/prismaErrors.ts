interface PrismaKnownError {
  code: string;
  meta?: Record<string, unknown>;
}

function isPrismaKnownError(err: unknown): err is PrismaKnownError {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' && /^P\d{4}$/.test(err.code);
}

/** True when the error is a unique-constraint violation. */
export function isUniqueViolation(err: unknown): boolean {
  return isPrismaKnownError(err) && err.code === 'P2002';
}
