import type { DomainError } from '../errors.ts';
import { goFieldName } from './validation.ts';

/** The HTTP status Gitea uses for each domain error kind (APIErrorAuto). */
export function statusOf(err: DomainError): number {
  switch (err.code) {
    case 'INVALID_ARGUMENT':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'PERMISSION_DENIED':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'ALREADY_EXISTS':
    case 'CONFLICT':
      return 409;
    case 'PRECONDITION_FAILED':
      return 412;
    case 'VALIDATION':
      return 422;
    case 'REPO_ARCHIVED':
      return 423;
    default: {
      const unreachable: never = err.code;
      return unreachable;
    }
  }
}

/** The message Gitea would show: binding failures read `[GoField]: Rule`. */
export function messageOf(err: DomainError): string {
  const field = err.data.field;
  // `goField` overrides the derived Go struct field name where Gitea's differs (CreateOrgOption.UserName).
  const goField = typeof err.data.goField === 'string' ? err.data.goField : typeof field === 'string' ? goFieldName(field) : null;
  if (err.code === 'VALIDATION' && goField) return `[${goField}]: ${err.message}`;
  return err.message;
}
