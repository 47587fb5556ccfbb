import {
  AlreadyExistsError,
  ConflictError,
  DomainError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  PreconditionFailedError,
  RepoArchivedError,
  UnauthenticatedError,
  ValidationError,
} from '../errors.ts';
import { builder } from './builder.ts';

/** Every typed mutation error implements this interface: `... on Error { message code }`. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description: 'A domain error returned by a mutation.',
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code', { description: 'Stable machine-readable code, e.g. NOT_FOUND.' }),
  }),
});

const simple = [
  [NotFoundError, 'The resource does not exist or is not visible to the viewer.'],
  [PermissionDeniedError, 'The viewer may see the resource but not perform the action.'],
  [UnauthenticatedError, 'The action needs a signed-in viewer or another kind of credential.'],
  [InvalidArgumentError, 'An argument is unacceptable.'],
  [AlreadyExistsError, 'A unique thing already exists.'],
  [ConflictError, 'The resource changed since it was read.'],
  [RepoArchivedError, 'The repository is archived.'],
  [PreconditionFailedError, 'The state of the resource does not allow the action.'],
] as const;

for (const [cls, description] of simple) {
  builder.objectType(cls, {
    name: cls.name,
    description,
    interfaces: [ErrorInterface],
    isTypeOf: (v) => v instanceof cls,
    fields: () => ({}),
  });
}

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'An input failed a validation rule.',
  interfaces: [ErrorInterface],
  isTypeOf: (v) => v instanceof ValidationError,
  fields: (t) => ({
    field: t.string({
      nullable: true,
      description: 'The input field at fault, when known.',
      resolve: (e) => (typeof e.data.field === 'string' ? e.data.field : null),
    }),
  }),
});

/**
 * Runs a service call, renaming `ValidationError.data.field` from the service's name (Gitea's, e.g. `full_name`)
 * to the GraphQL input field's (e.g. `name`), so `ValidationError.field` names a field of the input.
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

/** The error types every mutation declares (the Pothos errors plugin turns them into the result union). */
export const MUTATION_ERRORS = [
  NotFoundError,
  PermissionDeniedError,
  UnauthenticatedError,
  InvalidArgumentError,
  ValidationError,
  AlreadyExistsError,
  ConflictError,
  RepoArchivedError,
  PreconditionFailedError,
];
