// GitHub's PushAllowance: an account on a branch protection rule's push whitelist (Gitea's push whitelist users and
// teams), as BranchProtectionRule.pushAllowances and node(id:).
import { createContextCache } from '@pothos/core';
import DataLoader from 'dataloader';
import type { Models } from '../../db/client.ts';
import { branchProtectionReadWhere } from '../../services/protection/locate.ts';
import { parseIds } from '../../services/protection/rule.ts';
import { builder } from '../builder.ts';
import { arrayConnection } from '../arrayConnection.ts';
import type { GraphQLContext } from '../context.ts';
import { filteredBy, inherits } from '../policy.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { totalOf } from '../totalCount.ts';
import { BranchProtectionRuleRef } from './branchProtection.ts';
import { teamsById } from './pullRequestReview.ts';
import { TeamRef } from './team.ts';
import { UserRef } from './user.ts';

/** One whitelisted account of a rule: a user or a team, loaded. */
export type PushAllowanceView =
  { rule: Models.ProtectedBranch; kind: 'User'; actor: Models.User } | { rule: Models.ProtectedBranch; kind: 'Team'; actor: Models.Team };

/** The rule's push whitelist: its users, then its teams, in stored order; accounts deleted since are left out. */
async function allowancesOf(rule: Models.ProtectedBranch, ctx: GraphQLContext): Promise<PushAllowanceView[]> {
  const [users, teams] = await Promise.all([
    ctx.cx.loaders.userById.loadMany(parseIds(rule.whitelistUserIds)),
    Promise.all(parseIds(rule.whitelistTeamIds).map((id) => teamsById(ctx).load(id))),
  ]);
  const out: PushAllowanceView[] = [];
  for (const u of users) if (u && !(u instanceof Error)) out.push({ rule, kind: 'User', actor: u });
  for (const team of teams) if (team) out.push({ rule, kind: 'Team', actor: team });
  return out;
}

/** Per request: rules by id through the read policy of branch protection rules (admins of their repository), batched. */
const readableRules = createContextCache(
  (ctx: GraphQLContext) =>
    new DataLoader(async (ids: readonly number[]) => {
      const rows = await ctx.cx.db.protectedBranch.findMany({ where: { id: { in: [...ids] }, AND: [branchProtectionReadWhere(ctx.cx)] } });
      return ids.map((id) => rows.find((r) => r.id === id) ?? null);
    }),
);

/** The key in a PushAllowance id: `<rule id>:<User|Team>:<account id>`. */
const keyOf = (a: PushAllowanceView) => `${a.rule.id}:${a.kind}:${a.actor.id}`;

async function loadAllowance(id: string, ctx: GraphQLContext): Promise<PushAllowanceView | null> {
  const [ruleId, kind] = id.split(':');
  const n = Number(ruleId);
  if (!Number.isSafeInteger(n) || n <= 0 || (kind !== 'User' && kind !== 'Team')) return null;
  const rule = await readableRules(ctx).load(n);
  if (!rule) return null;
  return (await allowancesOf(rule, ctx)).find((a) => keyOf(a) === id) ?? null;
}

const PushAllowanceActorUnion = builder.unionType('PushAllowanceActor', {
  description: 'An account that may push to a protected branch: a user or a team (Gitea has no apps).',
  types: [UserRef, TeamRef],
  resolveType: (v) => ('orgId' in v ? TeamRef : UserRef),
});

export const PushAllowanceRef = builder.objectRef<PushAllowanceView>('PushAllowance');
builder.node(PushAllowanceRef, {
  description: "A user or team on a branch protection rule's push whitelist (Gitea push_whitelist_usernames / _teams).",
  ...filteredBy('branchProtectionReadWhere'),
  id: { resolve: keyOf },
  loadMany: (ids, ctx) => ids.map((id) => loadAllowance(id, ctx)),
  fields: (t) => ({
    actor: t.field({
      type: PushAllowanceActorUnion,
      nullable: true,
      ...inherits('the rule lists these accounts by name in REST (repository admins)'),
      resolve: (a) => a.actor,
    }),
    branchProtectionRule: t.field({
      type: BranchProtectionRuleRef,
      nullable: true,
      ...inherits('the rule this allowance was read from'),
      resolve: (a) => a.rule,
    }),
  }),
});
tokenReadScope(PushAllowanceRef, 'repository');

builder.prismaObjectFields(BranchProtectionRuleRef, (t) => ({
  pushAllowances: t.connection(
    {
      type: PushAllowanceRef,
      description: 'The push whitelist: its users, then its teams.',
      ...inherits('the rule lists these accounts by name in REST (repository admins)'),
      resolve: async (r, args, ctx) => arrayConnection(args, await allowancesOf(r, ctx)),
    },
    { name: 'PushAllowanceConnection', fields: (c) => ({ totalCount: c.int({ resolve: totalOf }) }) },
    { name: 'PushAllowanceEdge' },
  ),
}));
