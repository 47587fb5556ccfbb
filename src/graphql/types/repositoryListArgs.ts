// GitHub's arguments of the repository lists (User.repositories, Organization.repositories, Repository.forks,
// User.watching): filters and order through the repository service's where builder, inside each list's read policy.
import * as listFilter from '../../services/repo/listFilter.ts';
import type { GraphQLContext } from '../context.ts';
import { builder } from '../builder.ts';
import { opt } from '../ids.ts';
import { OrderDirectionEnum } from './orderInput.ts';

export const RepositoryPrivacyEnum = builder.enumType('RepositoryPrivacy', {
  description: 'The privacy of a repository.',
  values: { PUBLIC: { value: 'PUBLIC' }, PRIVATE: { value: 'PRIVATE' } } as const,
});

export const RepositoryVisibilityEnum = builder.enumType('RepositoryVisibility', {
  description: "A repository's visibility. No Gitea repository is INTERNAL (GitHub's enterprise-wide visibility).",
  values: { PUBLIC: { value: 'PUBLIC' }, PRIVATE: { value: 'PRIVATE' }, INTERNAL: { value: 'INTERNAL' } } as const,
});

const RepositoryAffiliationEnum = builder.enumType('RepositoryAffiliation', {
  description: 'How an account is related to a repository.',
  values: {
    OWNER: { value: 'OWNER', description: 'It owns the repository.' },
    COLLABORATOR: { value: 'COLLABORATOR', description: 'It was added as a collaborator.' },
    ORGANIZATION_MEMBER: { value: 'ORGANIZATION_MEMBER', description: 'It is a member of the organization that owns the repository.' },
  } as const,
});

const RepositoryOrderFieldEnum = builder.enumType('RepositoryOrderField', {
  description: 'Properties by which repository lists can be ordered.',
  values: {
    CREATED_AT: { value: 'CREATED_AT' },
    NAME: { value: 'NAME' },
    PUSHED_AT: { value: 'PUSHED_AT', description: "Gitea's updated time, which every push moves." },
    STARGAZERS: { value: 'STARGAZERS' },
    UPDATED_AT: { value: 'UPDATED_AT' },
  } as const,
});

const RepositoryOrderInput = builder.inputType('RepositoryOrder', {
  description: 'Ordering options for repository lists.',
  fields: (t) => ({
    field: t.field({ type: RepositoryOrderFieldEnum, required: true }),
    direction: t.field({ type: OrderDirectionEnum, required: true }),
  }),
});

/** The arguments every repository list takes. */
const common = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'Arg'>) => ({
  affiliations: t.field({
    type: [RepositoryAffiliationEnum],
    required: { list: false, items: false },
    description: 'Only repositories the viewer is related to in one of these ways (none for an anonymous viewer).',
  }),
  orderBy: t.field({ type: RepositoryOrderInput, description: "Order of the list (the list's own order when absent)." }),
  privacy: t.field({ type: RepositoryPrivacyEnum }),
  visibility: t.field({ type: RepositoryVisibilityEnum, description: 'INTERNAL matches nothing: Gitea has no internal repositories.' }),
  isLocked: t.boolean({ description: 'true matches nothing: Gitea does not lock repositories.' }),
  hasIssuesEnabled: t.boolean(),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The arguments of an account's own repositories: with isFork, isArchived, and ownerAffiliations OWNER. */
export const ownedRepositoryListArgs = builder.args((t) => ({
  ...common(t),
  isFork: t.boolean(),
  isArchived: t.boolean(),
  ownerAffiliations: t.field({
    type: [RepositoryAffiliationEnum],
    required: { list: false, items: false },
    description: 'Only OWNER: the list holds the repositories the account owns.',
  }),
}));

/** The arguments of a list of others' repositories (forks, watched): ownerAffiliations only empty. */
export const otherRepositoryListArgs = builder.args((t) => ({
  ...common(t),
  ownerAffiliations: t.field({
    type: [RepositoryAffiliationEnum],
    required: { list: false, items: false },
    description: 'Only empty: filter by the viewer with `affiliations` instead.',
  }),
}));

/** What the arguments hold, as the resolver receives them. */
export interface RepositoryListArgs {
  affiliations?: readonly (listFilter.RepoAffiliation | null | undefined)[] | null;
  ownerAffiliations?: readonly (listFilter.RepoAffiliation | null | undefined)[] | null;
  orderBy?: { field: listFilter.RepoOrderField; direction: 'ASC' | 'DESC' } | null;
  privacy?: 'PUBLIC' | 'PRIVATE' | null;
  visibility?: 'PUBLIC' | 'PRIVATE' | 'INTERNAL' | null;
  isLocked?: boolean | null;
  hasIssuesEnabled?: boolean | null;
  isFork?: boolean | null;
  isArchived?: boolean | null;
}

/** The values of a list argument whose items may be null (GitHub's `[RepositoryAffiliation]`). */
const given = <T>(list: readonly (T | null | undefined)[] | null | undefined): T[] | undefined =>
  list?.filter((v): v is T => v !== null && v !== undefined);

/**
 * The filters of the arguments, for the service's where builder. `owned`: the list holds one account's own
 * repositories (ownerAffiliations may say OWNER); otherwise ownerAffiliations must be empty.
 * @throws InvalidArgumentError for ownerAffiliations the list cannot honour
 */
export function repositoryListWhere(ctx: GraphQLContext, args: RepositoryListArgs, owned: boolean) {
  const ownerAffiliations = given(args.ownerAffiliations);
  if (owned) listFilter.assertOwnedOnly(ownerAffiliations, 'ownerAffiliations');
  else listFilter.assertNoOwnerAffiliations(ownerAffiliations, 'ownerAffiliations');
  return listFilter.repoListWhere(ctx.cx, {
    privacy: opt(args.privacy),
    visibility: opt(args.visibility),
    isFork: opt(args.isFork),
    isArchived: opt(args.isArchived),
    isLocked: opt(args.isLocked),
    hasIssuesEnabled: opt(args.hasIssuesEnabled),
    viewerAffiliations: given(args.affiliations),
  });
}

/** The order of the arguments, else `fallback`. */
export const repositoryListOrderBy = listFilter.repoListOrderBy;
