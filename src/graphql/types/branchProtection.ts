// GitHub's BranchProtectionRule over Gitea's protected branches: Repository.branchProtectionRules and the
// create/update/delete mutations (the services of REST …/branch_protections).
import { createContextCache } from '@pothos/core';
import { prismaConnectionHelpers } from '@pothos/plugin-prisma';
import type { Models } from '../../db/client.ts';
import * as manage from '../../services/protection/manage.ts';
import { branchProtectionReadWhere, canReadBranchProtections, locateBranchProtection } from '../../services/protection/locate.ts';
import { firstMatchingRule, isRuleNameSpecial, parseIds, parseStrings, repoRulesLoader } from '../../services/protection/rule.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { dbId, opt, requireDbIdOf } from '../ids.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { bothNodePaths } from '../selection.ts';
import { totalOf, withTotal } from '../totalCount.ts';
import { teamsById } from './pullRequestReview.ts';
import { repoRefOf } from '../idInputs.ts';
import { RefRef } from './ref.ts';
import { RepositoryRef } from './repository.ts';
import { UserRef } from './user.ts';
import { githubRuleFields, githubRuleInput, mergeRuleInputs } from './branchProtectionGithubInput.ts';

const LISTED = inherits('the rule lists these accounts by name in REST (repository admins)');

/** The accounts of a JSON id list, through the request's user loader (one query for every rule of a page). */
const usersOf = (text: string, ctx: { cx: { loaders: { userById: { loadMany: (ids: number[]) => Promise<unknown[]> } } } }) =>
  ctx.cx.loaders.userById.loadMany(parseIds(text)).then((rows) => rows.filter((u): u is Models.User => !!u && !(u instanceof Error)));

export const BranchProtectionRuleRef = builder.prismaNode('ProtectedBranch', {
  name: 'BranchProtectionRule',
  description:
    "A branch protection rule (Gitea's protected branch): a branch name or a glob pattern with its push, merge and review rules.",
  id: { field: 'id' },
  // node(id:): the rules of repositories the viewer administers (as GET …/branch_protections); absent for the rest.
  ...filteredBy('branchProtectionReadWhere'),
  findUnique: (id, ctx) => ({ id: dbId(id), AND: [branchProtectionReadWhere(ctx.cx)] }),
  nullable: true,
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    pattern: t.exposeString('ruleName', { description: 'A branch name, or a glob (Gitea rule_name).' }),
    branchName: t.string({
      nullable: true,
      description: 'The rule name when it is a plain branch name (Gitea branch_name).',
      resolve: (r) => (isRuleNameSpecial(r.ruleName) ? null : r.ruleName),
    }),
    priority: t.exposeInt('priority', { description: 'Gitea priority: lower applies first among patterns.' }),
    isPushEnabled: t.exposeBoolean('canPush', { description: 'Gitea enable_push: pushing is allowed at all.' }),
    restrictsPushes: t.exposeBoolean('enableWhitelist', { description: 'Gitea enable_push_whitelist.' }),
    pushAllowanceTeams: t.stringList({
      description: 'Team names on the push whitelist.',
      resolve: (r, _a, ctx) => teamNames(r.whitelistTeamIds, ctx),
    }),
    pushAllowsDeployKeys: t.exposeBoolean('whitelistDeployKeys'),
    allowsForcePushes: t.exposeBoolean('canForcePush'),
    restrictsForcePushes: t.exposeBoolean('enableForcePushAllowlist'),
    forcePushAllowances: t.field({ type: [UserRef], ...LISTED, resolve: (r, _a, ctx) => usersOf(r.forcePushAllowlistUserIds, ctx) }),
    forcePushAllowanceTeams: t.stringList({ resolve: (r, _a, ctx) => teamNames(r.forcePushAllowlistTeamIds, ctx) }),
    forcePushAllowsDeployKeys: t.exposeBoolean('forcePushAllowlistDeployKeys'),
    restrictsMerges: t.exposeBoolean('enableMergeWhitelist'),
    mergeAllowances: t.field({ type: [UserRef], ...LISTED, resolve: (r, _a, ctx) => usersOf(r.mergeWhitelistUserIds, ctx) }),
    mergeAllowanceTeams: t.stringList({ resolve: (r, _a, ctx) => teamNames(r.mergeWhitelistTeamIds, ctx) }),
    requiresStatusChecks: t.exposeBoolean('enableStatusCheck'),
    requiredStatusCheckContexts: t.stringList({ description: 'Context globs.', resolve: (r) => parseStrings(r.statusCheckContexts) }),
    requiresApprovingReviews: t.boolean({ resolve: (r) => r.requiredApprovals > 0 }),
    requiredApprovingReviewCount: t.exposeInt('requiredApprovals'),
    restrictsReviewApprovals: t.exposeBoolean('enableApprovalsWhitelist', {
      description: 'Only the approvals whitelist gives official approvals.',
    }),
    reviewApprovalAllowances: t.field({ type: [UserRef], ...LISTED, resolve: (r, _a, ctx) => usersOf(r.approvalsWhitelistUserIds, ctx) }),
    reviewApprovalAllowanceTeams: t.stringList({ resolve: (r, _a, ctx) => teamNames(r.approvalsWhitelistTeamIds, ctx) }),
    blocksOnRejectedReviews: t.exposeBoolean('blockOnRejectedReviews'),
    blocksOnOfficialReviewRequests: t.exposeBoolean('blockOnOfficialReviewRequests'),
    blocksOnOutdatedBranch: t.exposeBoolean('blockOnOutdatedBranch', { description: 'GitHub requiresStrictStatusChecks, roughly.' }),
    requiresStrictStatusChecks: t.exposeBoolean('blockOnOutdatedBranch', {
      description: 'Whether a pull request must be up to date with its base branch to merge (Gitea block_on_outdated_branch).',
    }),
    dismissesStaleReviews: t.exposeBoolean('dismissStaleApprovals'),
    ignoresStaleApprovals: t.exposeBoolean('ignoreStaleApprovals'),
    requiresCommitSignatures: t.exposeBoolean('requireSignedCommits', { description: 'Stored and reported; signatures are not verified.' }),
    protectedFilePatterns: t.exposeString('protectedFilePatterns', { description: 'Semicolon-separated globs.' }),
    unprotectedFilePatterns: t.exposeString('unprotectedFilePatterns', { description: 'Semicolon-separated globs.' }),
    blockAdminMergeOverride: t.exposeBoolean('blockAdminMergeOverride', {
      description: 'GitHub isAdminEnforced: admins cannot force a merge.',
    }),
    isAdminEnforced: t.exposeBoolean('blockAdminMergeOverride'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

tokenReadScope(BranchProtectionRuleRef, 'repository');

async function teamNames(text: string, ctx: Parameters<typeof teamsById>[0]): Promise<string[]> {
  const teams = await Promise.all(parseIds(text).map((id) => teamsById(ctx).load(id)));
  return teams.flatMap((team) => (team ? [team.name] : []));
}

const rulesConnection = prismaConnectionHelpers(builder, BranchProtectionRuleRef, {
  cursor: 'id',
  query: () => ({ orderBy: { priority: 'asc' as const } }),
});

builder.prismaObjectFields(RepositoryRef, (t) => ({
  branchProtectionRules: t.connection(
    {
      type: BranchProtectionRuleRef,
      description:
        'Branch protection rules in priority order: repository admins only (none for everyone else), as GET …/branch_protections.',
      ...checkedBy('canReadBranchProtections'),
      select: (args, ctx, nestedSelection) => ({
        protectedBranches: rulesConnection.getQuery(args, ctx, bothNodePaths(nestedSelection)),
        _count: { select: { protectedBranches: true } },
      }),
      resolve: async (r, args, ctx) =>
        canReadBranchProtections(await ctx.cx.loaders.repoPermission.load(r.id))
          ? withTotal(rulesConnection.resolve(r.protectedBranches, args, ctx), r._count.protectedBranches)
          : withTotal(rulesConnection.resolve([], args, ctx), 0),
    },
    { name: 'BranchProtectionRuleConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'BranchProtectionRuleEdge' },
  ),
}));

const rulesOf = createContextCache((ctx: GraphQLContext) => repoRulesLoader(ctx.cx.db));

builder.objectFields(RefRef, (t) => ({
  branchProtectionRule: t.field({
    type: BranchProtectionRuleRef,
    nullable: true,
    description:
      'The rule protecting this branch (the first that matches, in Gitea order): repository admins only (null for everyone else, and for a tag), as GET …/branch_protections.',
    ...checkedBy('canReadBranchProtections'),
    resolve: async (b, _a, ctx) => {
      if (b.branchId === null || !canReadBranchProtections(await ctx.cx.loaders.repoPermission.load(b.repo.id))) return null;
      return firstMatchingRule(await rulesOf(ctx).load(b.repo.id), b.name)?.row ?? null;
    },
  }),
}));

/** The settings both create and update take (absent: unchanged on update, Gitea's default on create). */
const ruleInputFields = builder.inputType('BranchProtectionRuleSettings', {
  description: 'Settings of a branch protection rule, named as BranchProtectionRule fields (Gitea CreateBranchProtectionOption).',
  fields: (t) => ({
    priority: t.int(),
    isPushEnabled: t.boolean(),
    restrictsPushes: t.boolean(),
    pushAllowanceLogins: t.stringList(),
    pushAllowanceTeams: t.stringList(),
    pushAllowsDeployKeys: t.boolean(),
    allowsForcePushes: t.boolean(),
    restrictsForcePushes: t.boolean(),
    forcePushAllowanceLogins: t.stringList(),
    forcePushAllowanceTeams: t.stringList(),
    forcePushAllowsDeployKeys: t.boolean(),
    restrictsMerges: t.boolean(),
    mergeAllowanceLogins: t.stringList(),
    mergeAllowanceTeams: t.stringList(),
    requiresStatusChecks: t.boolean(),
    requiredStatusCheckContexts: t.stringList(),
    requiredApprovingReviewCount: t.int(),
    restrictsReviewApprovals: t.boolean(),
    reviewApprovalAllowanceLogins: t.stringList(),
    reviewApprovalAllowanceTeams: t.stringList(),
    blocksOnRejectedReviews: t.boolean(),
    blocksOnOfficialReviewRequests: t.boolean(),
    blocksOnOutdatedBranch: t.boolean(),
    dismissesStaleReviews: t.boolean(),
    ignoresStaleApprovals: t.boolean(),
    requiresCommitSignatures: t.boolean(),
    protectedFilePatterns: t.string(),
    unprotectedFilePatterns: t.string(),
    blockAdminMergeOverride: t.boolean(),
  }),
});

type Settings = typeof ruleInputFields.$inferInput;

/** The service input of the GraphQL settings. */
function serviceInput(s: Settings | null | undefined): manage.BranchProtectionInput {
  if (!s) return {};
  return {
    priority: opt(s.priority),
    enablePush: opt(s.isPushEnabled),
    enablePushWhitelist: opt(s.restrictsPushes),
    pushWhitelistUsernames: opt(s.pushAllowanceLogins),
    pushWhitelistTeams: opt(s.pushAllowanceTeams),
    pushWhitelistDeployKeys: opt(s.pushAllowsDeployKeys),
    enableForcePush: opt(s.allowsForcePushes),
    enableForcePushAllowlist: opt(s.restrictsForcePushes),
    forcePushAllowlistUsernames: opt(s.forcePushAllowanceLogins),
    forcePushAllowlistTeams: opt(s.forcePushAllowanceTeams),
    forcePushAllowlistDeployKeys: opt(s.forcePushAllowsDeployKeys),
    enableMergeWhitelist: opt(s.restrictsMerges),
    mergeWhitelistUsernames: opt(s.mergeAllowanceLogins),
    mergeWhitelistTeams: opt(s.mergeAllowanceTeams),
    enableStatusCheck: opt(s.requiresStatusChecks),
    statusCheckContexts: opt(s.requiredStatusCheckContexts),
    requiredApprovals: opt(s.requiredApprovingReviewCount),
    enableApprovalsWhitelist: opt(s.restrictsReviewApprovals),
    approvalsWhitelistUsernames: opt(s.reviewApprovalAllowanceLogins),
    approvalsWhitelistTeams: opt(s.reviewApprovalAllowanceTeams),
    blockOnRejectedReviews: opt(s.blocksOnRejectedReviews),
    blockOnOfficialReviewRequests: opt(s.blocksOnOfficialReviewRequests),
    blockOnOutdatedBranch: opt(s.blocksOnOutdatedBranch),
    dismissStaleApprovals: opt(s.dismissesStaleReviews),
    ignoreStaleApprovals: opt(s.ignoresStaleApprovals),
    requireSignedCommits: opt(s.requiresCommitSignatures),
    protectedFilePatterns: opt(s.protectedFilePatterns),
    unprotectedFilePatterns: opt(s.unprotectedFilePatterns),
    blockAdminMergeOverride: opt(s.blockAdminMergeOverride),
  };
}

const ruleIdOf = (gid: { typename: string; id: string }) => requireDbIdOf(gid, 'BranchProtectionRule', 'not found');

builder.relayMutationField(
  'createBranchProtectionRule',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({ required: true }),
      pattern: t.string({ required: true, description: 'A branch name or a glob.' }),
      ...githubRuleFields(t),
      settings: t.field({
        type: ruleInputFields,
        description: "Gitea's settings GitHub lacks (each setting from GitHub's fields or here, not both).",
      }),
    }),
  },
  {
    description: 'Create a branch protection rule (repository admins; the service of POST /repos/{o}/{r}/branch_protections).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      return manage.createBranchProtection(ctx.cx, await repoRefOf(ctx, input.repositoryId), {
        ...mergeRuleInputs(githubRuleInput(input), serviceInput(input.settings)),
        ruleName: input.pattern,
      });
    },
  },
  { outputFields: (t) => ({ branchProtectionRule: t.field({ type: BranchProtectionRuleRef, resolve: (v) => v.row }) }) },
);

builder.relayMutationField(
  'updateBranchProtectionRule',
  {
    inputFields: (t) => ({
      branchProtectionRuleId: t.globalID({ required: true }),
      pattern: t.string({ description: "A new branch name or glob (renames the rule, as Gitea's settings page)." }),
      ...githubRuleFields(t),
      settings: t.field({
        type: ruleInputFields,
        description: "Gitea's settings GitHub lacks (each setting from GitHub's fields or here, not both). Given fields change.",
      }),
    }),
  },
  {
    description: 'Edit a branch protection rule (repository admins; the service of PATCH …/branch_protections/{name}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const { ref, name } = await locateBranchProtection(ctx.cx, ruleIdOf(input.branchProtectionRuleId));
      return manage.editBranchProtection(ctx.cx, ref, name, {
        ...mergeRuleInputs(githubRuleInput(input), serviceInput(input.settings)),
        ruleName: opt(input.pattern),
      });
    },
  },
  { outputFields: (t) => ({ branchProtectionRule: t.field({ type: BranchProtectionRuleRef, resolve: (v) => v.row }) }) },
);

builder.relayMutationField(
  'deleteBranchProtectionRule',
  { inputFields: (t) => ({ branchProtectionRuleId: t.globalID({ required: true }) }) },
  {
    description: 'Delete a branch protection rule (repository admins; the service of DELETE …/branch_protections/{name}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const { ref, name } = await locateBranchProtection(ctx.cx, ruleIdOf(input.branchProtectionRuleId));
      await manage.deleteBranchProtection(ctx.cx, ref, name);
      return { id: input.branchProtectionRuleId };
    },
  },
  {
    outputFields: (t) => ({
      deletedBranchProtectionRuleId: t.globalID({ resolve: (p) => ({ type: 'BranchProtectionRule', id: p.id.id }) }),
    }),
  },
);
