/**
 * The closed set of domain errors. Services throw only these; transports map them
 * (REST to Gitea statuses in rest/errors.ts, GraphQL to typed errors and extensions.code).
 * None carries an HTTP status.
 */
export type DomainErrorCode =
  | 'NOT_FOUND'
  | 'PERMISSION_DENIED'
  | 'UNAUTHENTICATED'
  | 'INVALID_ARGUMENT'
  | 'VALIDATION'
  | 'ALREADY_EXISTS'
  | 'CONFLICT'
  | 'REPO_ARCHIVED'
  | 'PRECONDITION_FAILED';

/**
 * Finer causes a service may attach as `data.reason`, where a transport answers them differently from other
 * errors of the same code (Gitea answers some refusals with a bare status, merge refusals with 405).
 */
export type ErrorReason =
  | 'NOT_POSTER_OR_WRITER'
  | 'ISSUE_WRITE_REQUIRED'
  | 'TIME_TRACKING_NOT_ALLOWED'
  | 'NOT_TIME_OWNER'
  | 'NO_CONTENT_SUPPORT'
  | 'MERGE_NOT_ALLOWED'
  /** The resource does not support the operation (Gitea's 405, e.g. team routes of a user's repository). */
  | 'NOT_SUPPORTED'
  /** An upload over a size limit (Gitea ErrContentTooLarge: 413). */
  | 'TOO_LARGE'
  /** A push to a mirror (Gitea's serv has its own text for it). */
  | 'MIRROR_READ_ONLY';

/** Base of every domain error: a stable code, a human message and structured data. */
export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  readonly data: Record<string, unknown>;
  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.data = data;
  }
}

/** The resource does not exist or the viewer may not see it (never reveals which). */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND' as const;
}

/** The viewer can see the resource but may not perform the action. */
export class PermissionDeniedError extends DomainError {
  readonly code = 'PERMISSION_DENIED' as const;
}

/** The action needs a signed-in viewer (or a different kind of credential). */
export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED' as const;
}

/** A well-formed request whose argument is unacceptable (Gitea answers 400). */
export class InvalidArgumentError extends DomainError {
  readonly code = 'INVALID_ARGUMENT' as const;
}

/** Input failed a validation rule (Gitea answers 422). */
export class ValidationError extends DomainError {
  readonly code = 'VALIDATION' as const;
}

/** A unique thing already exists. */
export class AlreadyExistsError extends DomainError {
  readonly code = 'ALREADY_EXISTS' as const;
}

/** An optimistic-locking conflict (stale content_version) or a concurrent change. */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT' as const;
}

/** A write to an archived repository. */
export class RepoArchivedError extends DomainError {
  readonly code = 'REPO_ARCHIVED' as const;
  constructor(message = 'repo is archived', data: Record<string, unknown> = {}) {
    super(message, data);
  }
}

/** The state of the resource does not allow the action (e.g. closing with open dependencies). */
export class PreconditionFailedError extends DomainError {
  readonly code = 'PRECONDITION_FAILED' as const;
}

/** Narrows an unknown thrown value to a domain error. */
export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
