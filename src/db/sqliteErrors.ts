// A better-sqlite3 error, from a statement run on Prisma's connection without Prisma (rawStatements.ts,
// sqliteTransaction.ts), as Prisma's raw query reports it: the code above (asModelError, busyMessageOf, withRetry)
// reads Prisma's code and the driver's cause, and sees no difference.
import Database from 'better-sqlite3';
import { Prisma } from '../generated/sqlite/client.ts';

/** The kind Prisma's adapter gives a driver error (its mapDriverError), which asModelError and busyMessageOf read. */
function kindOf(code: string): string {
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'UniqueConstraintViolation';
  if (code === 'SQLITE_CONSTRAINT_NOTNULL') return 'NullConstraintViolation';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'SQLITE_CONSTRAINT_TRIGGER') return 'ForeignKeyConstraintViolation';
  if (code.startsWith('SQLITE_BUSY')) return 'SocketTimeout';
  return 'sqlite';
}

/** A driver error as Prisma's raw query reports it: P2010 with the driver's cause. */
export function asPrismaRawError(err: unknown): unknown {
  if (!(err instanceof Database.SqliteError)) return err;
  return new Prisma.PrismaClientKnownRequestError(`Raw query failed. Code: \`${err.code}\`. Message: \`${err.message}\``, {
    code: 'P2010',
    clientVersion: Prisma.prismaVersion.client,
    meta: {
      code: err.code,
      message: err.message,
      driverAdapterError: { cause: { kind: kindOf(err.code), originalCode: err.code, originalMessage: err.message } },
    },
  });
}

/** Prisma's error for a transaction that could not start in time, or was used or committed after it closed. */
export function transactionApiError(message: string): Prisma.PrismaClientKnownRequestError {
  return new Prisma.PrismaClientKnownRequestError(message, { code: 'P2028', clientVersion: Prisma.prismaVersion.client });
}
