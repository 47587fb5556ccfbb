import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { addCollaborator } from '../helpers/fixtures.ts';
import { gql, mutationError } from '../helpers/graphql.ts';
import { PullFixture } from '../helpers/pull.ts';

interface Rule {
  id: string;
  pattern: string;
  priority: number;
  requiredApprovingReviewCount: number;
  requiresStatusChecks: boolean;
  requiredStatusCheckContexts: string[];
  pushAllowances: { totalCount: number; nodes: { actor: { login?: string; name?: string } }[] };
}

const RULE_FIELDS =
  'id pattern priority requiredApprovingReviewCount requiresStatusChecks requiredStatusCheckContexts pushAllowances(first: 10) { totalCount nodes { actor { ... on User { login } ... on Team { name } } } }';
const CREATE = `mutation($input: CreateBranchProtectionRuleInput!) { createBranchProtectionRule(input: $input) {
  __typename branchProtectionRule { ${RULE_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateBranchProtectionRuleInput!) { updateBranchProtectionRule(input: $input) {
  __typename branchProtectionRule { ${RULE_FIELDS} } } }`;
const DELETE = `mutation($input: DeleteBranchProtectionRuleInput!) { deleteBranchProtectionRule(input: $input) {
  __typename deletedBranchProtectionRuleId } }`;

/** A rule's pushAllowances connection naming these users. */
const allowed = (...logins: string[]) => ({ totalCount: logins.length, nodes: logins.map((login) => ({ actor: { login } })) });

describe.each(PROVIDERS)('GraphQL branch protection rules (%s)', (provider) => {
  let t: TestApp;
  let f: PullFixture;
  let repoId: string;

  const rules = async (user: string) => {
    const res = await gql<{ repository: { branchProtectionRules: { totalCount: number; nodes: Rule[] } | null } }>(
      t,
      `{ repository(owner: "alice", name: "demo") { branchProtectionRules(first: 10) { totalCount nodes { ${RULE_FIELDS} } } } }`,
      { headers: basic(user) },
    );
    expect(res.errors).toBeUndefined();
    return res.data!.repository.branchProtectionRules;
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    f = await PullFixture.start(t);
    for (const u of ['alice', 'bob']) await t.createUser(u);
    const repo = await f.createRepo('alice', 'demo');
    await addCollaborator(t, repo, { name: 'bob' }, 'write');
    const res = await gql<{ repository: { id: string } }>(t, '{ repository(owner: "alice", name: "demo") { id } }', {
      headers: basic('alice'),
    });
    repoId = res.data!.repository.id;
  });
  afterAll(async () => {
    f?.dispose();
    await t?.close();
  });

  it('creates, lists, edits and deletes rules through the REST service, admins only', async () => {
    const created = await gql<{ createBranchProtectionRule: { __typename: string; branchProtectionRule: Rule } | null }>(t, CREATE, {
      headers: basic('alice'),
      variables: {
        input: {
          repositoryId: repoId,
          pattern: 'main',
          settings: {
            requiredApprovingReviewCount: 2,
            requiresStatusChecks: true,
            requiredStatusCheckContexts: ['ci/*'],
            restrictsPushes: true,
            isPushEnabled: true,
            pushAllowanceLogins: ['alice'],
          },
        },
      },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createBranchProtectionRule?.branchProtectionRule).toMatchObject({
      pattern: 'main',
      priority: 1,
      requiredApprovingReviewCount: 2,
      requiredStatusCheckContexts: ['ci/*'],
      pushAllowances: allowed('alice'),
    });
    // REST sees the same rule.
    const rest = await t.request('GET', '/api/v1/repos/alice/demo/branch_protections/main', { headers: basic('alice') });
    expect(rest.json()).toMatchObject({ rule_name: 'main', required_approvals: 2, push_whitelist_usernames: ['alice'] });

    const dup = await gql(t, CREATE, {
      headers: basic('alice'),
      variables: { input: { repositoryId: repoId, pattern: 'main' } },
    });
    expect(mutationError(dup, 'createBranchProtectionRule')).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'Branch protection already exist',
    });
    const unknown = await gql(t, CREATE, {
      headers: basic('alice'),
      variables: { input: { repositoryId: repoId, pattern: 'release/*', settings: { pushAllowanceLogins: ['nobody'] } } },
    });
    expect(mutationError(unknown, 'createBranchProtectionRule')?.code).toBe('VALIDATION');
    const asWriter = await gql(t, CREATE, {
      headers: basic('bob'),
      variables: { input: { repositoryId: repoId, pattern: 'dev' } },
    });
    expect(mutationError(asWriter, 'createBranchProtectionRule')?.code).toBe('PERMISSION_DENIED');

    await gql(t, CREATE, { headers: basic('alice'), variables: { input: { repositoryId: repoId, pattern: 'release/*' } } });
    const list = await rules('alice');
    expect(list?.totalCount).toBe(2);
    expect(list?.nodes.map((r) => r.pattern)).toEqual(['main', 'release/*']);
    // GitHub's BranchProtectionRuleConnection! is never null: a writer who is not an admin gets none.
    expect(await rules('bob')).toEqual({ totalCount: 0, nodes: [] });

    const glob = list!.nodes[1]!;
    const edited = await gql<{ updateBranchProtectionRule: { branchProtectionRule: Rule } | null }>(t, UPDATE, {
      headers: basic('alice'),
      variables: { input: { branchProtectionRuleId: glob.id, settings: { requiredApprovingReviewCount: 1 } } },
    });
    expect(mutationError(edited, 'updateBranchProtectionRule')).toBeNull();
    expect(edited.data!.updateBranchProtectionRule?.branchProtectionRule).toMatchObject({
      pattern: 'release/*',
      requiredApprovingReviewCount: 1,
    });
    const bobDelete = await gql(t, DELETE, {
      headers: basic('bob'),
      variables: { input: { branchProtectionRuleId: glob.id } },
    });
    expect(mutationError(bobDelete, 'deleteBranchProtectionRule')?.code).toBe('PERMISSION_DENIED');
    const deleted = await gql<{ deleteBranchProtectionRule: { deletedBranchProtectionRuleId: string } | null }>(t, DELETE, {
      headers: basic('alice'),
      variables: { input: { branchProtectionRuleId: glob.id } },
    });
    expect(mutationError(deleted, 'deleteBranchProtectionRule')).toBeNull();
    expect(deleted.data!.deleteBranchProtectionRule?.deletedBranchProtectionRuleId).toBe(glob.id);
    expect((await rules('alice'))?.nodes.map((r) => r.pattern)).toEqual(['main']);
  });

  it("takes GitHub's input fields: mapped onto Gitea's settings, GitHub-only settings only at Gitea's value", async () => {
    const ids = await gql<{ user: { id: string } }>(t, '{ user(login: "bob") { id } }', { headers: basic('alice') });
    const bobId = ids.data!.user.id;
    const created = await gql<{ createBranchProtectionRule: { branchProtectionRule: Rule & Record<string, unknown> } | null }>(
      t,
      `mutation($input: CreateBranchProtectionRuleInput!) { createBranchProtectionRule(input: $input) { branchProtectionRule {
        ${RULE_FIELDS} allowsForcePushes dismissesStaleReviews isAdminEnforced restrictsPushes requiresCommitSignatures
        requiresStrictStatusChecks requiresApprovingReviews } } }`,
      {
        headers: basic('alice'),
        variables: {
          input: {
            repositoryId: repoId,
            pattern: 'gh/*',
            allowsDeletions: false,
            allowsForcePushes: true,
            dismissesStaleReviews: true,
            isAdminEnforced: true,
            restrictsPushes: true,
            pushActorIds: [bobId],
            requiresApprovingReviews: true,
            requiredApprovingReviewCount: 3,
            requiresStatusChecks: true,
            requiredStatusChecks: [{ context: 'ci/build', appId: null }],
            requiresCommitSignatures: true,
            requiresStrictStatusChecks: true,
            requiresLinearHistory: false,
            bypassPullRequestActorIds: [],
          },
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const rule = created.data!.createBranchProtectionRule!.branchProtectionRule;
    expect(rule).toMatchObject({
      pattern: 'gh/*',
      allowsForcePushes: true,
      dismissesStaleReviews: true,
      isAdminEnforced: true,
      restrictsPushes: true,
      pushAllowances: allowed('bob'),
      requiredApprovingReviewCount: 3,
      requiresApprovingReviews: true,
      requiresStatusChecks: true,
      requiredStatusCheckContexts: ['ci/build'],
      requiresCommitSignatures: true,
      requiresStrictStatusChecks: true,
    });
    // REST reads the same Gitea settings.
    const rest = await t.request('GET', `/api/v1/repos/alice/demo/branch_protections/${encodeURIComponent('gh/*')}`, {
      headers: basic('alice'),
    });
    expect(rest.json()).toMatchObject({
      enable_force_push: true,
      dismiss_stale_approvals: true,
      block_admin_merge_override: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: ['bob'],
      required_approvals: 3,
      enable_status_check: true,
      status_check_contexts: ['ci/build'],
      require_signed_commits: true,
      block_on_outdated_branch: true,
    });

    // GitHub's update shape: no settings, a new pattern, requiresApprovingReviews: false clears the count.
    const updated = await gql<{ updateBranchProtectionRule: { branchProtectionRule: Rule } | null }>(t, UPDATE, {
      headers: basic('alice'),
      variables: {
        input: {
          branchProtectionRuleId: rule.id,
          pattern: 'gh2/*',
          requiresApprovingReviews: false,
          requiredStatusCheckContexts: ['lint'],
        },
      },
    });
    expect(mutationError(updated, 'updateBranchProtectionRule')).toBeNull();
    expect(updated.data!.updateBranchProtectionRule?.branchProtectionRule).toMatchObject({
      pattern: 'gh2/*',
      requiredApprovingReviewCount: 0,
      requiredStatusCheckContexts: ['lint'],
      pushAllowances: allowed('bob'),
    });
    const renamedTo = async (pattern: string) => {
      const res = await gql(t, UPDATE, { headers: basic('alice'), variables: { input: { branchProtectionRuleId: rule.id, pattern } } });
      return mutationError(res, 'updateBranchProtectionRule');
    };
    expect((await renamedTo('main'))?.message).toBe('Branch protection already exist');

    // A GitHub setting Gitea cannot hold is refused, naming the field, and changes nothing.
    const refused = async (extra: Record<string, unknown>) => {
      const res = await gql(t, UPDATE, {
        headers: basic('alice'),
        variables: { input: { branchProtectionRuleId: rule.id, requiresStatusChecks: false, ...extra } },
      });
      return mutationError(res, 'updateBranchProtectionRule');
    };
    for (const extra of [
      { allowsDeletions: true },
      { requiresLinearHistory: true },
      { lockBranch: true },
      { bypassPullRequestActorIds: [bobId] },
      { requiredStatusChecks: [{ context: 'x', appId: '42' }] },
      { requiresApprovingReviews: true },
      { requiresApprovingReviews: false, requiredApprovingReviewCount: 2 },
      { pushActorIds: [repoId] },
      { requiresCommitSignatures: false, settings: { requiresCommitSignatures: true } },
      { pushActorIds: [bobId], settings: { pushAllowanceLogins: ['alice'] } },
    ]) {
      const err = await refused(extra);
      expect(err, JSON.stringify(extra)).toMatchObject({ code: 'VALIDATION' });
      expect(err!.message).toContain(Object.keys(extra)[0]);
    }
    const after = (await rules('alice'))!.nodes.find((r) => r.pattern === 'gh2/*');
    expect(after).toMatchObject({ requiresStatusChecks: true, pushAllowances: allowed('bob') });
  });

  it('rules and their push allowances (users and teams) are Nodes for repository admins only', async () => {
    const asAlice = { headers: basic('alice') };
    expect((await t.request('POST', '/api/v1/orgs', { ...asAlice, body: { username: 'nodeorg' } })).statusCode).toBe(201);
    expect((await t.request('POST', '/api/v1/orgs/nodeorg/repos', { ...asAlice, body: { name: 'tool' } })).statusCode).toBe(201);
    const team = await t.request('POST', '/api/v1/orgs/nodeorg/teams', {
      ...asAlice,
      body: { name: 'pushers', permission: 'write', units: ['repo.code'] },
    });
    expect(team.statusCode, team.body).toBe(201);
    const teamId = (team.json() as { id: number }).id;
    expect((await t.request('PUT', `/api/v1/teams/${teamId}/repos/nodeorg/tool`, asAlice)).statusCode).toBe(204);
    await addCollaborator(t, { ownerName: 'nodeorg', name: 'tool' }, { name: 'bob' }, 'write');
    const rest = await t.request('POST', '/api/v1/repos/nodeorg/tool/branch_protections', {
      ...asAlice,
      body: {
        rule_name: 'main',
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: ['alice'],
        push_whitelist_teams: ['pushers'],
      },
    });
    expect(rest.statusCode, rest.body).toBe(201);

    type Listed = {
      repository: { branchProtectionRules: { nodes: { id: string; pushAllowances: { totalCount: number; nodes: { id: string }[] } }[] } };
    };
    const listed = await gql<Listed>(
      t,
      '{ repository(owner: "nodeorg", name: "tool") { branchProtectionRules(first: 5) { nodes { id pushAllowances(first: 5) { totalCount nodes { id } } } } } }',
      asAlice,
    );
    expect(listed.errors).toBeUndefined();
    const rule = listed.data!.repository.branchProtectionRules.nodes[0]!;
    expect(rule.pushAllowances.totalCount).toBe(2);
    const ids = [rule.id, ...rule.pushAllowances.nodes.map((a) => a.id)];
    const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
      ... on BranchProtectionRule { pattern pushAllowances(last: 1) { totalCount nodes { actor { __typename ... on Team { name } } } } }
      ... on PushAllowance { actor { __typename ... on User { login } ... on Team { name } } branchProtectionRule { pattern } } } }`;
    const asAdmin = await gql<{ nodes: unknown[] }>(t, NODES, { headers: basic('alice'), variables: { ids } });
    expect(asAdmin.errors).toBeUndefined();
    expect(asAdmin.data!.nodes).toEqual([
      {
        __typename: 'BranchProtectionRule',
        id: rule.id,
        pattern: 'main',
        pushAllowances: { totalCount: 2, nodes: [{ actor: { __typename: 'Team', name: 'pushers' } }] },
      },
      { __typename: 'PushAllowance', id: ids[1], actor: { __typename: 'User', login: 'alice' }, branchProtectionRule: { pattern: 'main' } },
      {
        __typename: 'PushAllowance',
        id: ids[2],
        actor: { __typename: 'Team', name: 'pushers' },
        branchProtectionRule: { pattern: 'main' },
      },
    ]);
    // A writer who is not an admin, and anonymous viewers, get nulls (GET …/branch_protections is admins only).
    for (const headers of [basic('bob'), {}]) {
      const other = await gql<{ nodes: unknown[] }>(t, NODES, { headers, variables: { ids } });
      expect(other.errors).toBeUndefined();
      expect(other.data!.nodes).toEqual([null, null, null]);
    }
  });

  it('branchProtectionRules with their allowances cost the same statements for 1 rule as for 3', async () => {
    const count = async () => {
      t.queries.length = 0;
      const list = await rules('alice');
      return { n: list!.nodes.length, statements: t.queries.length };
    };
    const small = await count();
    for (const pattern of ['v1/*', 'v2/*'])
      await gql(t, CREATE, {
        headers: basic('alice'),
        variables: {
          input: { repositoryId: repoId, pattern, settings: { pushAllowanceLogins: ['alice', 'bob'], mergeAllowanceLogins: ['bob'] } },
        },
      });
    const large = await count();
    expect(large.n).toBe(small.n + 2);
    console.info(
      `[${provider}] branchProtectionRules { pushAllowances }: ${small.statements} statements for ${small.n}, ${large.statements} for ${large.n}`,
    );
    expect(large.statements).toBe(small.statements);
  });
});
