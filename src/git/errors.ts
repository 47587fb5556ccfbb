import { InvalidArgumentError, NotFoundError, type DomainError } from '../errors.ts';

/** An isomorphic-git error: it carries a stable `code` (its class name) and `data`. */
interface IsoGitError {
  code: string;
  message: string;
  data?: unknown;
}

function isIsoGitError(err: unknown): err is IsoGitError {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' && err instanceof Error;
}

/** Maps an isomorphic-git error (by `err.code`) to a domain error; anything else is rethrown unchanged. */
export function toDomainError(err: unknown, what: string): DomainError {
  if (isIsoGitError(err)) {
    switch (err.code) {
      case 'NotFoundError':
      case 'ObjectTypeError':
      case 'AmbiguousError':
        return new NotFoundError(what, { cause: err.code });
      case 'InvalidOidError':
      case 'InvalidRefNameError':
        return new InvalidArgumentError(what, { cause: err.code });
      default:
        break;
    }
  }
  throw err;
}
