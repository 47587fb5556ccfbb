import { AlreadyExistsError, NotFoundError } from '../errors.ts';

interface PrismaKnownError {
  code: string;
  meta?: Record<string, unknown>;
}

function isPrismaKnownError(err: unknown): err is PrismaKnownError {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' && /^P\d{4}$/.test(err.code);
}

/** Translates Prisma's known request errors to domain errors (by code, never by message); rethrows anything else. */
export function translatePrismaError(err: unknown, what = 'resource'): never {
  if (isPrismaKnownError(err)) {
    if (err.code === 'P2002') throw new AlreadyExistsError(`${what} already exists`, { target: err.meta?.target });
    if (err.code === 'P2025') throw new NotFoundError(`${what} does not exist`);
  }
  throw err;
}

/** True when the error is a unique-constraint violation. */
export function isUniqueViolation(err: unknown): boolean {
  return isPrismaKnownError(err) && err.code === 'P2002';
}
