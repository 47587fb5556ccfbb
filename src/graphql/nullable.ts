import { NotFoundError } from '../errors.ts';

/** Runs a lookup for a nullable field: NotFound (absent or invisible) becomes null; other errors propagate. */
export async function orNull<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}
