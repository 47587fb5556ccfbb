import { actionJobReadWhere, actionRunReadWhere } from '../services/actions/graphRead.ts';
import { releaseAssetReadWhere } from '../services/attachment/visibility.ts';
import { activityReadWhere } from '../services/feed/visibility.ts';
import { issueReadWhere, commentReadWhere } from '../services/issue/visibility.ts';
import { labelReadWhere } from '../services/label/visibility.ts';
import { notificationReadWhere } from '../services/notification/visibility.ts';
import { milestoneReadWhere } from '../services/milestone/visibility.ts';
import { orgMemberReadWhere, orgReadWhere, teamMemberReadWhere, teamReadWhere, userOrgReadWhere } from '../services/org/visibility.ts';
import { packageReadWhere, packageVersionReadWhere } from '../services/package/visibility.ts';
import { branchProtectionReadWhere } from '../services/protection/locate.ts';
import { deployKeyReadWhere } from '../services/repo/deployKey.ts';
import { projectCardReadWhere, projectReadWhere } from '../services/project/visibility.ts';
import { pullReadWhere, reviewReadWhere, reviewRequestReadWhere } from '../services/pull/visibility.ts';
import { releaseReadWhere } from '../services/release/visibility.ts';
import { branchReadWhere, collaborationReadWhere, repoReadWhere, topicReadWhere } from '../services/repo/visibility.ts';
import { publicKeyReadWhere, userReadWhere } from '../services/user/visibility.ts';

/**
 * The services' read policies (one per resource) that GraphQL fields filter by. A field declares which one its
 * query applies, so the declaration names a real function and test/graphql/policy.test.ts can hold every
 * object-returning field of the schema to having one.
 */
export const READ_POLICIES = {
  activityReadWhere,
  repoReadWhere,
  branchReadWhere,
  branchProtectionReadWhere,
  deployKeyReadWhere,
  collaborationReadWhere,
  topicReadWhere,
  issueReadWhere,
  commentReadWhere,
  pullReadWhere,
  reviewReadWhere,
  reviewRequestReadWhere,
  milestoneReadWhere,
  labelReadWhere,
  projectReadWhere,
  projectCardReadWhere,
  releaseReadWhere,
  releaseAssetReadWhere,
  orgReadWhere,
  orgMemberReadWhere,
  userOrgReadWhere,
  teamReadWhere,
  teamMemberReadWhere,
  userReadWhere,
  notificationReadWhere,
  publicKeyReadWhere,
  packageReadWhere,
  packageVersionReadWhere,
  actionRunReadWhere,
  actionJobReadWhere,
} as const;

/** The name of a service read policy. */
export type ReadPolicyName = keyof typeof READ_POLICIES;

/**
 * How a field returning objects (or an object type, for node(id:)) decides what the viewer sees:
 * - `filter`: its query (or findUnique) filters the rows by that service read policy;
 * - `check`: its resolver asks that service function about the one object (the REST gate of the same read);
 * - `inherit`: whoever may read the parent may read this (the reason says why, e.g. REST shows it with the parent).
 */
export type ReadPolicy = { filter: ReadPolicyName } | { check: string } | { inherit: string };

/** Field or type options declaring a read policy (spread them into the options). */
export interface ReadPolicyOptions {
  extensions: { readPolicy: ReadPolicy };
}

/** The field's query filters its rows by the service read policy `name`. */
export function filteredBy(name: ReadPolicyName): ReadPolicyOptions {
  return { extensions: { readPolicy: { filter: name } } };
}

/** The resolver decides through the service function `fn` (named as in the source). */
export function checkedBy(fn: string): ReadPolicyOptions {
  return { extensions: { readPolicy: { check: fn } } };
}

/** Readable with the parent; `reason` says why (e.g. "REST shows the poster with the issue"). */
export function inherits(reason: string): ReadPolicyOptions {
  return { extensions: { readPolicy: { inherit: reason } } };
}

/** The read policy a field or type declares, if any (for the schema-wide policy test). */
export function readPolicyOf(extensions: Readonly<Record<string, unknown>> | null | undefined): ReadPolicy | null {
  const policy = extensions?.readPolicy as ReadPolicy | undefined;
  if (!policy || typeof policy !== 'object') return null;
  if ('filter' in policy) return Object.hasOwn(READ_POLICIES, policy.filter) ? policy : null;
  if ('check' in policy) return policy.check ? policy : null;
  return 'inherit' in policy && policy.inherit ? policy : null;
}
