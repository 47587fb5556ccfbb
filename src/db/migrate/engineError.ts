import { MigrationError } from './MigrationError.ts';

/** The Prisma error code (`P1001`, `P3009`…) the schema engine attached to an error, if any. */
export function engineErrorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

/** The human part of an engine error message, without the Rust span trace that follows it. */
export function engineErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split(/\n\s+0: /)[0]?.trim() ?? message;
}

/** Wraps any error from the engine or a driver as an `ENGINE_ERROR` (MigrationErrors pass through). */
export function toEngineError(err: unknown, doing: string): MigrationError {
  if (err instanceof MigrationError) return err;
  const engineCode = engineErrorCode(err);
  const data = engineCode === undefined ? {} : { engineCode };
  return new MigrationError('ENGINE_ERROR', `${doing} failed: ${engineErrorMessage(err)}`, data, { cause: err });
}
