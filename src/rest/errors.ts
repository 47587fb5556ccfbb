import type { DomainError, ErrorReason } from '../errors.ts';
import { goFieldName } from './validation.ts';

/** Longest error message sent; longer ones (which echo input) are cut. */
export const MAX_MESSAGE_LENGTH = 512;

/** `text` cut to `max` characters, marked with an ellipsis when cut. */
export function cut(text: string, max = MAX_MESSAGE_LENGTH): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

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
      return err.data.reason === 'NOT_SUPPORTED' ? 405 : 412;
    case 'VALIDATION':
      return err.data.reason === 'TOO_LARGE' ? 413 : 422;
    case 'REPO_ARCHIVED':
      return 423;
    default: {
      const unreachable: never = err.code;
      return unreachable;
    }
  }
}

/**
 * The refusals Gitea's handlers answer with a bare status (`ctx.Status(403)`, no body): editing a pull request
 * or a comment one did not post, assignee and label writes without write access, stopwatches and tracked
 * times one may not use, and deleting a comment type without content.
 */
const BODYLESS: ReadonlySet<ErrorReason> = new Set<ErrorReason>([
  'NOT_POSTER_OR_WRITER',
  'ISSUE_WRITE_REQUIRED',
  'TIME_TRACKING_NOT_ALLOWED',
  'NOT_TIME_OWNER',
  'NO_CONTENT_SUPPORT',
]);

/** Whether Gitea answers this error with its status alone. */
export function isBodyless(err: DomainError): boolean {
  return typeof err.data.reason === 'string' && BODYLESS.has(err.data.reason as ErrorReason);
}

/**
 * The message Gitea would show: binding failures read `[GoField]: Rule`, where GoField is the Go struct field
 * (`goNames` holds the route body's names that differ from the derived ones, e.g. CreateOrgOption.UserName).
 */
export function messageOf(err: DomainError, goNames: Record<string, string> = {}): string {
  const field = err.data.field;
  if (err.code === 'VALIDATION' && typeof field === 'string') return cut(`[${goNames[field] ?? goFieldName(field)}]: ${err.message}`);
  return cut(err.message);
}
