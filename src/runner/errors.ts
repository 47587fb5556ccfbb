// Domain errors as Connect errors: the runner stops polling on `unauthenticated`, so the codes matter.
import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { DomainError } from '../errors.ts';

const CODES: Record<string, Code> = {
  UNAUTHENTICATED: Code.Unauthenticated,
  NOT_FOUND: Code.NotFound,
  PERMISSION_DENIED: Code.PermissionDenied,
  ALREADY_EXISTS: Code.AlreadyExists,
  INVALID_ARGUMENT: Code.InvalidArgument,
  VALIDATION: Code.InvalidArgument,
  CONFLICT: Code.Aborted,
};

/** Maps a thrown DomainError to its Connect code; anything else stays `internal` without details. */
export const domainErrors: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    if (err instanceof ConnectError) throw err;
    if (err instanceof DomainError) throw new ConnectError(err.message, CODES[err.code] ?? Code.Unknown);
    throw new ConnectError('internal error', Code.Internal, undefined, undefined, err);
  }
};
