import { Prisma } from '../generated/sqlite/client.ts';

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

/** Prisma's error for a raw query the driver refused (P2010): `cause` is the adapter's (asModelError, busyMessageOf read it). */
export function rawQueryError(code: string, message: string, cause: Record<string, unknown>): Prisma.PrismaClientKnownRequestError {
  return new Prisma.PrismaClientKnownRequestError(`Raw query failed. Code: \`${code}\`. Message: \`${message}\``, {
    code: 'P2010',
    clientVersion: Prisma.prismaVersion.client,
    meta: { code, message, driverAdapterError: { cause } },
  });
}

/** Prisma's error for a transaction that could not start in time, or was used or committed after it closed. */
export function transactionApiError(message: string): Prisma.PrismaClientKnownRequestError {
  return new Prisma.PrismaClientKnownRequestError(message, { code: 'P2028', clientVersion: Prisma.prismaVersion.client });
}
