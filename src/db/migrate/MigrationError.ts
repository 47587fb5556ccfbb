/** Why migrations could not be applied (or inspected). */
export type MigrationErrorCode =
  /** A migration failed on this database (now or earlier) and needs manual repair. */
  | 'MIGRATION_FAILED'
  /** An applied migration's `migration.sql` changed since it was applied (checksum mismatch). */
  | 'MIGRATION_EDITED'
  /** The database has applied migrations this code does not know: it was migrated by a newer version. */
  | 'DATABASE_NEWER'
  /** The schema engine or the database connection failed for another reason. */
  | 'ENGINE_ERROR';

/** Structured detail carried by a MigrationError. */
export interface MigrationErrorData {
  /** The migrations concerned (directory names), if any. */
  migrations: string[];
  /** The Prisma error code reported by the schema engine (e.g. `P1001`), if any. */
  engineCode?: string;
}

/** The only error the migration runner throws; callers branch on `code`. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
  readonly code: MigrationErrorCode;
  readonly data: MigrationErrorData;

  constructor(code: MigrationErrorCode, message: string, data: Partial<MigrationErrorData> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = { migrations: data.migrations ?? [], ...(data.engineCode === undefined ? {} : { engineCode: data.engineCode }) };
  }
}
