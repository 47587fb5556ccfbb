// gh against the forge (see ghCli.test.ts): `gh repo list` and its filters, `gh pr edit`, `gh issue edit` and the
// fields of `gh repo view --json`; each effect is checked through /api/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { addCollaborator, createMilestone, createRepo, createRepoLabel, editRepo } from '../helpers/fixtures.ts';
import { GH, startGhHarness, type GhHarness } from '../helpers/ghHarness.ts';

interface Listed {
  nameWithOwner: string;
  isPrivate: boolean;
  isFork: boolean;
  isArchived: boolean;
  pushedAt: string;
}

describe.skipIf(!GH).each(CLIENT_PROVIDERS)('gh repo list, pr edit, issue edit (%s)', (provider) => {
  let h: GhHarness;
  const names = (out: string): string[] =>
    out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0] ?? '')
      .sort();

  beforeAll(async () => {
    h = await startGhHarness(provider);
    const { t } = h;
    const alice = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } });
    const bob = await t.createUser('bob');
    await createRepo(t, alice, 'secret', { private: true, autoInit: true });
    const old = await createRepo(t, alice, 'old', { autoInit: true });
    await editRepo(t, old, { archived: true });
    await createRepo(t, bob, 'upstream', { autoInit: true });
    const fork = await t.request('POST', '/api/v1/repos/bob/upstream/forks', { headers: basic('alice'), body: {} });
    expect(fork.statusCode, fork.body).toBe(202);
    const topics = await t.request('PUT', '/api/v1/repos/alice/demo/topics', { headers: basic('alice'), body: { topics: ['cli'] } });
    expect(topics.statusCode, topics.body).toBe(204);
    // A Go repository: its language is computed when first asked for.
    await createRepo(t, alice, 'tool', { autoInit: true });
    const main = await t.request('POST', '/api/v1/repos/alice/tool/contents/main.go', {
      headers: basic('alice'),
      body: { content: Buffer.from('package main\n\nfunc main() {}\n'.repeat(40)).toString('base64'), message: 'go' },
    });
    expect(main.statusCode, main.body).toBe(201);
    expect(Object.keys(await h.v1('/repos/alice/tool/languages'))).toEqual(['Go']);

    const demo = { ownerName: 'alice', name: 'demo' };
    await addCollaborator(t, demo, bob, 'write');
    await createRepoLabel(t, demo, { name: 'bug', color: '#ff0000' });
    await createMilestone(t, demo, { title: 'v1' });
    const board = await t.request('POST', '/api/v1/repos/alice/demo/projects', { headers: basic('alice'), body: { title: 'Board' } });
    expect(board.statusCode, board.body).toBe(201);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('repo list: an owner’s repositories, most recently pushed first, with GitHub’s filters', async () => {
    expect(names(await h.gh('repo', 'list', 'alice'))).toEqual(['alice/demo', 'alice/old', 'alice/secret', 'alice/tool', 'alice/upstream']);
    expect(names(await h.gh('repo', 'list'))).toEqual(names(await h.gh('repo', 'list', 'alice')));
    expect(names(await h.gh('repo', 'list', 'alice', '--visibility', 'private'))).toEqual(['alice/secret']);
    expect(names(await h.gh('repo', 'list', 'alice', '--visibility', 'internal'))).toEqual([]);
    expect(names(await h.gh('repo', 'list', 'alice', '--fork'))).toEqual(['alice/upstream']);
    expect(names(await h.gh('repo', 'list', 'alice', '--source'))).not.toContain('alice/upstream');
    // The search filters (GraphQL search, GitHub's repository qualifiers).
    expect(names(await h.gh('repo', 'list', 'alice', '--archived'))).toEqual(['alice/old']);
    expect(names(await h.gh('repo', 'list', 'alice', '--no-archived'))).not.toContain('alice/old');
    expect(names(await h.gh('repo', 'list', 'alice', '--topic', 'cli'))).toEqual(['alice/demo']);
    expect(names(await h.gh('repo', 'list', 'alice', '--language', 'go'))).toEqual(['alice/tool']);
    const json = JSON.parse(
      await h.gh('repo', 'list', 'alice', '--json', 'nameWithOwner,isPrivate,isFork,isArchived,pushedAt'),
    ) as Listed[];
    expect(json.find((r) => r.nameWithOwner === 'alice/secret')).toMatchObject({ isPrivate: true, isFork: false, isArchived: false });
    expect(json.find((r) => r.nameWithOwner === 'alice/upstream')).toMatchObject({ isFork: true });
    expect(Number.isNaN(Date.parse(json[0]?.pushedAt ?? ''))).toBe(false);
    // Another owner's: what the viewer may see.
    expect(names(await h.gh('repo', 'list', 'bob'))).toEqual(['bob/upstream']);
  });

  it('pr edit: title, body, base, labels, assignees, reviewers, milestone and project, then their removal', async () => {
    await h.branchWithFile('edit-me');
    await h.branchWithFile('develop');
    const n = await h.ghPull('edit-me', 'Edit me');
    const R = ['-R', h.repo];
    await h.gh('pr', 'edit', n, '--title', 'Edited', '--body', 'new body', '--base', 'develop', '--add-label', 'bug', ...R);
    await h.gh('pr', 'edit', n, '--add-assignee', 'bob', '--add-reviewer', 'bob', '--milestone', 'v1', '--add-project', 'Board', ...R);
    const pull = await h.v1(`/repos/alice/demo/pulls/${n}`);
    expect(pull).toMatchObject({ title: 'Edited', body: 'new body', base: { ref: 'develop' }, milestone: { title: 'v1' } });
    expect((pull.labels as Array<{ name: string }>).map((l) => l.name)).toEqual(['bug']);
    expect((pull.assignees as Array<{ login: string }>).map((a) => a.login)).toEqual(['bob']);
    expect((pull.requested_reviewers as Array<{ login: string }>).map((a) => a.login)).toEqual(['bob']);
    const view = JSON.parse(await h.gh('pr', 'view', n, '--json', 'projectCards', ...R)) as {
      projectCards: { project: { name: string } }[];
    };
    expect(view.projectCards.map((c) => c.project.name)).toEqual(['Board']);

    await h.gh(
      'pr',
      'edit',
      n,
      '--remove-label',
      'bug',
      '--remove-assignee',
      'bob',
      '--remove-reviewer',
      'bob',
      '--remove-project',
      'Board',
      ...R,
    );
    const after = await h.v1(`/repos/alice/demo/pulls/${n}`);
    expect(after).toMatchObject({ labels: [], assignees: [], requested_reviewers: [] });
    expect(JSON.parse(await h.gh('pr', 'view', n, '--json', 'projectCards', ...R))).toEqual({ projectCards: [] });
  });

  it('issue edit: labels, assignees, milestone and project, then their removal', async () => {
    const created = await h.t.request('POST', '/api/v1/repos/alice/demo/issues', { headers: basic('alice'), body: { title: 'Edit' } });
    const n = String((created.json() as { number: number }).number);
    const R = ['-R', h.repo];
    await h.gh('issue', 'edit', n, '--add-label', 'bug', '--add-assignee', 'bob', '--milestone', 'v1', '--add-project', 'Board', ...R);
    const issue = await h.v1(`/repos/alice/demo/issues/${n}`);
    expect(issue).toMatchObject({ milestone: { title: 'v1' }, labels: [{ name: 'bug' }], assignees: [{ login: 'bob' }] });
    expect(JSON.parse(await h.gh('issue', 'view', n, '--json', 'projectCards', ...R))).toEqual({
      projectCards: [{ project: { name: 'Board' }, column: { name: 'Uncategorized' } }],
    });
    await h.gh(
      'issue',
      'edit',
      n,
      '--remove-label',
      'bug',
      '--remove-assignee',
      'bob',
      '--milestone',
      '',
      '--remove-project',
      'Board',
      ...R,
    );
    expect(await h.v1(`/repos/alice/demo/issues/${n}`)).toMatchObject({ milestone: null, labels: [], assignees: null });
    expect(JSON.parse(await h.gh('issue', 'view', n, '--json', 'projectCards', ...R))).toEqual({ projectCards: [] });
  });

  it('repo view --json: the fields gh offers that Gitea can answer', async () => {
    const fields = [
      'assignableUsers',
      'deleteBranchOnMerge',
      'viewerDefaultMergeMethod',
      'hasDiscussionsEnabled',
      'isInOrganization',
      'isUserConfigurationRepository',
      'openGraphImageUrl',
      'usesCustomOpenGraphImage',
      'isSecurityPolicyEnabled',
      'pushedAt',
      'projects',
      'repositoryTopics',
    ];
    const view = JSON.parse(await h.gh('repo', 'view', 'alice/demo', '--json', fields.join(','))) as Record<string, unknown>;
    expect(view).toMatchObject({
      deleteBranchOnMerge: false,
      viewerDefaultMergeMethod: 'MERGE',
      hasDiscussionsEnabled: false,
      isInOrganization: false,
      isUserConfigurationRepository: false,
      usesCustomOpenGraphImage: false,
      // null (Gitea does not look for a security policy), which gh prints as false.
      isSecurityPolicyEnabled: false,
      projects: [expect.objectContaining({ name: 'Board', resourcePath: '/alice/demo/projects/1' })],
      repositoryTopics: [{ name: 'cli' }],
    });
    expect((view.assignableUsers as { login: string }[]).map((u) => u.login)).toEqual(['bob', 'alice']);
    expect(view.openGraphImageUrl).toMatch(new RegExp(`^https://${h.host.replaceAll('.', '\\.')}/avatars/`));
    const edit = await h.t.request('PATCH', '/api/v1/repos/alice/demo', {
      headers: basic('alice'),
      body: { default_delete_branch_after_merge: true, default_merge_style: 'squash' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(JSON.parse(await h.gh('repo', 'view', 'alice/demo', '--json', 'deleteBranchOnMerge,viewerDefaultMergeMethod'))).toEqual({
      deleteBranchOnMerge: true,
      viewerDefaultMergeMethod: 'SQUASH',
    });
  });
});
