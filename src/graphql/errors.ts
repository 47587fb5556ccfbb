import { ValidationError } from '../errors.ts';

/**
 * Runs a service call, renaming `ValidationError.data.field` from the service's name (Gitea's, e.g. `full_name`)
 * to the GraphQL input field's (e.g. `name`), so the error's `extensions.field` names a field of the input.
 */
export async function withInputFieldNames<T>(names: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const field = err instanceof ValidationError ? err.data.field : undefined;
    const renamed = typeof field === 'string' ? names[field] : undefined;
    if (err instanceof ValidationError && renamed) throw new ValidationError(err.message, { ...err.data, field: renamed });
    throw err;
  }
}
