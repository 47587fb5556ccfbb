import { decodeGlobalID, encodeGlobalID } from '@pothos/plugin-relay';
import { Readable } from 'node:stream';
import type { ScopeCategory } from '../../src/auth/scope.ts';
import { repoPath } from '../../src/git/repoPath.ts';
import * as assetService from '../../src/services/release/asset.ts';
import { basic } from '../helpers/app.ts';
import { contextFor } from '../helpers/org.ts';
import { sshKeyPair } from '../helpers/sshSign.ts';
import type { IssueAt, ScopeFixture } from './mutationScopeFixture.ts';

type Json = Record<string, unknown>;

/**
 * One way to run a mutation. The token scope it needs is its REST twin's (looked up in the REST route table,
 * so the two doors cannot drift apart); a mutation without a twin names its scope and says why.
 */
export interface ScopeCase {
  /** What this case exercises, when a mutation has several. */
  label?: string;
  /** The REST twin, `METHOD /path` exactly as in the route table; null when there is none. */
  rest: string | null;
  /** Only without a REST twin: the categories the write needs, and why these. */
  scopes?: ScopeCategory[];
  why?: string;
  /** Builds a fresh target (as root, with a password) and returns a valid input for the mutation. */
  input: (fx: ScopeFixture) => Promise<Json>;
  /**
   * What a `public-only` token with write on everything gets on the (private) target: refused unless this
   * says why the rule does not apply (the target is not a private resource).
   */
  publicOnlyExempt?: string;
  /** `password`: only a password may perform the write (Gitea reqBasicOrRevProxyAuth); every token is refused. */
  credential?: 'password';
  /**
   * Why no token is refused: the REST twin needs no scope (Gitea's `none` routes), so neither does the mutation.
   * Set exactly when the twin's scopes are empty; the case then only checks that a read-only token may write.
   */
  unscoped?: string;
}

const repoInput = async (fx: ScopeFixture) => {
  const r = await fx.repo();
  return { owner: r.owner, name: r.name };
};
/** A fresh private repository named by its global id (GitHub's `repositoryId`). */
const repoIdInput = async (fx: ScopeFixture) => {
  const r = await fx.repo();
  const row = await fx.rest('GET', `/repos/${r.owner}/${r.name}`);
  return { repositoryId: encodeGlobalID('Repository', row.id as number) };
};
const withHead = async (fx: ScopeFixture) => {
  const repo = await fx.repo({ git: true });
  const row = await fx.rest('GET', `/repos/${repo.owner}/${repo.name}`);
  const branch = await fx.rest('GET', `/repos/${repo.owner}/${repo.name}/branches/main`);
  return { repo, repositoryId: encodeGlobalID('Repository', row.id as number), head: (branch.commit as { id: string }).id };
};
const issueOf = (issue: IssueAt) => issue.gid;
/** The global id of the account `login`. */
const userGid = async (fx: ScopeFixture, login: string) => encodeGlobalID('User', (await fx.rest('GET', `/users/${login}`)).id as number);
const labelled = async (fx: ScopeFixture) => {
  const issue = await fx.issue();
  const label = await fx.repoLabel(issue.repo);
  await fx.rest('POST', `${fx.issuePath(issue)}/labels`, { labels: [label.id] });
  return { issue, label };
};
const withTime = async (fx: ScopeFixture) => {
  const issue = await fx.issue();
  const time = await fx.rest('POST', `${fx.issuePath(issue)}/times`, { time: 120 });
  return { issue, timeId: time.id as number };
};
const withStopwatch = async (fx: ScopeFixture) => {
  const issue = await fx.issue();
  await fx.rest('POST', `${fx.issuePath(issue)}/stopwatch/start`);
  return { issueId: issueOf(issue) };
};
const blocked = async (fx: ScopeFixture, org?: string) => {
  const login = await fx.newUser();
  await fx.rest('PUT', org ? `/orgs/${org}/blocks/${login}` : `/user/blocks/${login}`);
  return { login, ...(org ? { organizationLogin: org } : {}) };
};
const orgLabel = async (fx: ScopeFixture) => {
  const org = await fx.org();
  const label = await fx.rest('POST', `/orgs/${org}/labels`, { name: fx.name('label'), color: '#112233' });
  return encodeGlobalID('Label', label.id as number);
};
/** A fresh generic package (version 1.0, one file) of a fresh private organization, uploaded by root through the registry. */
const orgPackage = async (fx: ScopeFixture) => {
  const org = await fx.org();
  const name = fx.name('pkg');
  const auth = `Basic ${Buffer.from('root:password123!').toString('base64')}`;
  const res = await fx.t.app.server.inject({
    method: 'PUT',
    url: `/api/packages/${org}/generic/${name}/1.0/f.bin`,
    headers: { authorization: auth },
    payload: 'x',
  });
  if (res.statusCode !== 201) throw new Error(`package upload answered ${res.statusCode}: ${res.body}`);
  const pkg = await fx.t.db.package.findFirstOrThrow({ where: { lowerName: name }, include: { versions: true } });
  return { org, name, pkg, gid: encodeGlobalID('Package', pkg.id), versionGid: encodeGlobalID('PackageVersion', pkg.versions[0]?.id ?? 0) };
};
const orgProject = async (fx: ScopeFixture) => {
  const org = await fx.org();
  const p = await fx.rest('POST', `/orgs/${org}/projects`, { title: fx.name('project') });
  return encodeGlobalID('Project', p.id as number);
};
const teamWithMember = async (fx: ScopeFixture) => {
  const org = await fx.org();
  const team = await fx.team(org);
  await fx.rest('PUT', `/teams/${team.id}/members/alice`);
  return { org, team };
};
const teamWithRepo = async (fx: ScopeFixture) => {
  const org = await fx.org();
  const team = await fx.team(org);
  const repo = await fx.repo({ org });
  await fx.rest('PUT', `/teams/${team.id}/repos/${org}/${repo.name}`);
  return { teamId: team.gid, owner: org, name: repo.name };
};
const NEW_RESOURCE = 'creates a resource of the viewer; there is no private target';
const ADMIN_ONLY = "the admin category: Gitea's public-only rule has no case for it";

/** A fresh branch protection rule of a fresh repository; its global id. */
const protectionRule = async (fx: ScopeFixture) => {
  const repo = await fx.repo();
  await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/branch_protections`, { rule_name: 'main' });
  const row = await fx.t.db.protectedBranch.findFirstOrThrow({ where: { ruleName: 'main', repo: { lowerName: repo.name.toLowerCase() } } });
  return encodeGlobalID('BranchProtectionRule', row.id);
};

/** Every mutation of the schema → how to run it. A mutation missing here fails the test. */
export const SCOPE_CASES: Record<string, ScopeCase[]> = {
  addAssigneesToAssignable: [
    {
      rest: 'POST /repos/{owner}/{repo}/issues/{index}/assignees',
      input: async (fx) => ({ assignableId: issueOf(await fx.issue()), assigneeIds: [], assigneeLogins: ['root'] }),
    },
  ],
  removeAssigneesFromAssignable: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/assignees',
      input: async (fx) => {
        const issue = await fx.issue();
        await fx.rest('POST', `${fx.issuePath(issue)}/assignees`, { assignees: ['root'] });
        return { assignableId: issueOf(issue), assigneeIds: [], assigneeLogins: ['root'] };
      },
    },
  ],
  addBlockedBy: [
    {
      rest: 'POST /repos/{owner}/{repo}/issues/{index}/dependencies',
      input: async (fx) => {
        const blockedIssue = await fx.issue();
        const blocking = await fx.issue(blockedIssue.repo);
        return { issueId: issueOf(blockedIssue), blockingIssueId: issueOf(blocking) };
      },
    },
  ],
  removeBlockedBy: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/dependencies',
      input: async (fx) => {
        const blockedIssue = await fx.issue();
        const blocking = await fx.issue(blockedIssue.repo);
        await fx.mutate('addBlockedBy', { issueId: blockedIssue.gid, blockingIssueId: blocking.gid });
        return { issueId: issueOf(blockedIssue), blockingIssueId: issueOf(blocking) };
      },
    },
  ],
  addCollaborator: [
    {
      rest: 'PUT /repos/{owner}/{repo}/collaborators/{collaborator}',
      input: async (fx) => ({ ...(await repoInput(fx)), login: 'alice', permission: 'ADMIN' }),
    },
  ],
  removeCollaborator: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/collaborators/{collaborator}',
      input: async (fx) => {
        const repo = await fx.repo();
        await fx.rest('PUT', `/repos/${repo.owner}/${repo.name}/collaborators/alice`, { permission: 'write' });
        return { owner: repo.owner, name: repo.name, login: 'alice' };
      },
    },
  ],
  addComment: [
    {
      rest: 'POST /repos/{owner}/{repo}/issues/{index}/comments',
      input: async (fx) => ({ subjectId: issueOf(await fx.issue()), body: 'hello' }),
    },
  ],
  updateIssueComment: [
    { rest: 'PATCH /repos/{owner}/{repo}/issues/comments/{id}', input: async (fx) => ({ id: await fx.comment(), body: 'edited' }) },
  ],
  deleteIssueComment: [{ rest: 'DELETE /repos/{owner}/{repo}/issues/comments/{id}', input: async (fx) => ({ id: await fx.comment() }) }],
  addPublicKey: [
    {
      rest: 'POST /user/keys',
      input: async (fx) => ({ title: fx.name('key'), key: fx.sshKey() }),
      publicOnlyExempt: "the viewer's own (public) account; Gitea's public-only rule refuses only non-public users",
    },
  ],
  deletePublicKey: [
    {
      rest: 'DELETE /user/keys/{id}',
      input: async (fx) => {
        const key = await fx.rest('POST', '/user/keys', { title: fx.name('key'), key: fx.sshKey() });
        return { id: encodeGlobalID('PublicKey', key.id as number) };
      },
      publicOnlyExempt: "the viewer's own (public) account; Gitea's public-only rule refuses only non-public users",
    },
  ],
  verifySshPublicKey: [
    {
      rest: null,
      scopes: ['user'],
      why: "Gitea verifies SSH keys on its settings page only; it changes one of the viewer's keys, as POST /user/keys adds one",
      input: async (fx) => {
        const pair = sshKeyPair(`${fx.name('key')}@test`);
        const key = await fx.rest('POST', '/user/keys', { title: fx.name('key'), key: pair.line });
        const token = (await fx.t.request('GET', '/api/v1/user/gpg_key_token', { headers: basic('root') })).body;
        return { fingerprint: key.fingerprint as string, signature: pair.sign(token, 'gitea') };
      },
      publicOnlyExempt: "the viewer's own (public) account; Gitea's public-only rule refuses only non-public users",
    },
  ],
  addEmails: [{ rest: 'POST /user/emails', input: async (fx) => ({ emails: [`${fx.name('mail')}@example.com`] }) }],
  deleteEmails: [
    {
      rest: 'DELETE /user/emails',
      input: async (fx) => {
        const email = `${fx.name('mail')}@example.com`;
        await fx.rest('POST', '/user/emails', { emails: [email] });
        return { emails: [email] };
      },
    },
  ],
  addIssueToProject: [
    {
      rest: null,
      scopes: ['issue'],
      why: "Gitea has no API for it; it changes the issue's projects, as PATCH …/issues/{index} with `projects` does",
      input: async (fx) => {
        const issue = await fx.issue();
        return { issueId: issueOf(issue), projectId: (await fx.repoProject(issue.repo)).gid };
      },
    },
  ],
  removeIssueFromProject: [
    {
      rest: null,
      scopes: ['issue'],
      why: "Gitea has no API for it; it changes the issue's projects, as PATCH …/issues/{index} with `projects` does",
      input: async (fx) => {
        const issue = await fx.issue();
        const project = await fx.repoProject(issue.repo);
        await fx.mutate('addIssueToProject', { issueId: issue.gid, projectId: project.gid });
        return { issueId: issueOf(issue), projectId: project.gid };
      },
    },
  ],
  addLabelsToLabelable: [
    {
      rest: 'POST /repos/{owner}/{repo}/issues/{index}/labels',
      input: async (fx) => {
        const issue = await fx.issue();
        return { labelableId: issueOf(issue), labelIds: [(await fx.repoLabel(issue.repo)).gid] };
      },
    },
  ],
  removeLabelsFromLabelable: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/labels/{id}',
      input: async (fx) => {
        const { issue, label } = await labelled(fx);
        return { labelableId: issueOf(issue), labelIds: [label.gid] };
      },
    },
  ],
  clearLabelsFromLabelable: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/labels',
      input: async (fx) => ({ labelableId: issueOf((await labelled(fx)).issue) }),
    },
  ],
  addPullRequestReview: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls/{index}/reviews',
      input: async (fx) => ({ pullRequestId: (await fx.pull()).gid, event: 'APPROVE', body: 'ok' }),
    },
  ],
  submitPullRequestReview: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}',
      input: async (fx) => ({ pullRequestReviewId: await fx.review(await fx.pull()), event: 'COMMENT', body: 'done' }),
    },
  ],
  deletePullRequestReview: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/pulls/{index}/reviews/{id}',
      input: async (fx) => ({ pullRequestReviewId: await fx.review(await fx.pull(), 'COMMENT') }),
    },
  ],
  dismissPullRequestReview: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls/{index}/reviews/{id}/dismissals',
      input: async (fx) => ({ pullRequestReviewId: await fx.review(await fx.pull(), 'APPROVED'), message: 'stale' }),
    },
  ],
  requestReviews: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls/{index}/requested_reviewers',
      input: async (fx) => ({ pullRequestId: (await fx.pull()).gid, userLogins: ['bob'] }),
    },
  ],
  requestReviewsByLogin: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls/{index}/requested_reviewers',
      input: async (fx) => ({ pullRequestId: (await fx.pull()).gid, userLogins: ['bob'] }),
    },
  ],
  createPullRequest: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls',
      input: async (fx) => {
        const repo = await fx.repo({ git: true });
        const head = await fx.branch(repo);
        return { repositoryOwner: repo.owner, repositoryName: repo.name, baseRefName: 'main', headRefName: head, title: 'a change' };
      },
    },
  ],
  updatePullRequest: [
    {
      rest: 'PATCH /repos/{owner}/{repo}/pulls/{index}',
      input: async (fx) => ({ pullRequestId: (await fx.pull()).gid, title: 'renamed' }),
    },
  ],
  mergePullRequest: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls/{index}/merge',
      input: async (fx) => ({ pullRequestId: (await fx.pull()).gid, mergeMethod: 'MERGE' }),
    },
  ],
  addReaction: [
    {
      label: 'on an issue',
      rest: 'POST /repos/{owner}/{repo}/issues/{index}/reactions',
      input: async (fx) => ({ subjectId: issueOf(await fx.issue()), content: 'HEART' }),
    },
    {
      label: 'on a comment',
      rest: 'POST /repos/{owner}/{repo}/issues/comments/{id}/reactions',
      input: async (fx) => ({ subjectId: await fx.comment(), content: 'ROCKET' }),
    },
  ],
  removeReaction: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/reactions',
      input: async (fx) => {
        const issue = await fx.issue();
        await fx.rest('POST', `${fx.issuePath(issue)}/reactions`, { content: 'heart' });
        return { subjectId: issueOf(issue), content: 'HEART' };
      },
    },
  ],
  addTeamMember: [
    {
      rest: 'PUT /teams/{id}/members/{username}',
      input: async (fx) => ({ teamId: (await fx.team(await fx.org())).gid, login: 'alice' }),
    },
  ],
  removeTeamMember: [
    {
      rest: 'DELETE /teams/{id}/members/{username}',
      input: async (fx) => ({ teamId: (await teamWithMember(fx)).team.gid, login: 'alice' }),
    },
  ],
  addTeamRepository: [
    {
      rest: 'PUT /teams/{id}/repos/{org}/{repo}',
      input: async (fx) => {
        const org = await fx.org();
        const team = await fx.team(org);
        const repo = await fx.repo({ org });
        return { teamId: team.gid, owner: org, name: repo.name };
      },
    },
  ],
  removeTeamRepository: [{ rest: 'DELETE /teams/{id}/repos/{org}/{repo}', input: teamWithRepo }],
  createTeam: [
    {
      rest: 'POST /orgs/{org}/teams',
      input: async (fx) => ({ organizationLogin: await fx.org(), name: fx.name('team'), permission: 'WRITE', units: ['repo.code'] }),
    },
  ],
  updateTeam: [
    { rest: 'PATCH /teams/{id}', input: async (fx) => ({ teamId: (await fx.team(await fx.org())).gid, description: 'renamed' }) },
  ],
  deleteTeam: [{ rest: 'DELETE /teams/{id}', input: async (fx) => ({ teamId: (await fx.team(await fx.org())).gid }) }],
  addTrackedTime: [
    { rest: 'POST /repos/{owner}/{repo}/issues/{index}/times', input: async (fx) => ({ issueId: issueOf(await fx.issue()), seconds: 60 }) },
  ],
  deleteTrackedTime: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/times/{id}',
      input: async (fx) => ({ trackedTimeId: (await withTime(fx)).timeId }),
    },
  ],
  resetTrackedTimes: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/times',
      input: async (fx) => ({ issueId: issueOf((await withTime(fx)).issue) }),
    },
  ],
  startStopwatch: [
    { rest: 'POST /repos/{owner}/{repo}/issues/{index}/stopwatch/start', input: async (fx) => ({ issueId: issueOf(await fx.issue()) }) },
  ],
  stopStopwatch: [{ rest: 'POST /repos/{owner}/{repo}/issues/{index}/stopwatch/stop', input: withStopwatch }],
  cancelStopwatch: [{ rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/stopwatch/delete', input: withStopwatch }],
  blockUser: [
    {
      label: 'for the viewer',
      rest: 'PUT /user/blocks/{username}',
      input: async (fx) => ({ login: await fx.newUser() }),
      publicOnlyExempt: "the viewer's own block list; Gitea's public-only rule has no context user there",
    },
    {
      label: 'for an organization',
      rest: 'PUT /orgs/{org}/blocks/{username}',
      input: async (fx) => ({ login: await fx.newUser(), organizationLogin: await fx.org() }),
    },
  ],
  unblockUser: [
    {
      label: 'for the viewer',
      rest: 'DELETE /user/blocks/{username}',
      input: (fx) => blocked(fx),
      publicOnlyExempt: "the viewer's own block list; Gitea's public-only rule has no context user there",
    },
    { label: 'for an organization', rest: 'DELETE /orgs/{org}/blocks/{username}', input: async (fx) => blocked(fx, await fx.org()) },
  ],
  followUser: [
    {
      rest: 'PUT /user/following/{username}',
      input: async (fx) => ({ userId: await userGid(fx, await fx.newUser()) }),
      publicOnlyExempt: 'the target is a public account, which a public-only token may follow (Gitea checkTokenPublicOnly)',
    },
  ],
  unfollowUser: [
    {
      rest: 'DELETE /user/following/{username}',
      input: async (fx) => {
        const login = await fx.newUser();
        await fx.rest('PUT', `/user/following/${login}`);
        return { userId: await userGid(fx, login) };
      },
      publicOnlyExempt: 'the target is a public account, which a public-only token may unfollow (Gitea checkTokenPublicOnly)',
    },
  ],
  lockLockable: [
    {
      rest: 'PUT /repos/{owner}/{repo}/issues/{index}/lock',
      input: async (fx) => ({ lockableId: issueOf(await fx.issue()), lockReason: 'SPAM' }),
    },
  ],
  unlockLockable: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/lock',
      input: async (fx) => {
        const issue = await fx.issue();
        await fx.rest('PUT', `${fx.issuePath(issue)}/lock`, {});
        return { lockableId: issueOf(issue) };
      },
    },
  ],
  pinIssue: [{ rest: 'POST /repos/{owner}/{repo}/issues/{index}/pin', input: async (fx) => ({ issueId: issueOf(await fx.issue()) }) }],
  unpinIssue: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/pin',
      input: async (fx) => {
        const issue = await fx.issue();
        await fx.rest('POST', `${fx.issuePath(issue)}/pin`);
        return { issueId: issueOf(issue) };
      },
    },
  ],
  closeIssue: [{ rest: 'PATCH /repos/{owner}/{repo}/issues/{index}', input: async (fx) => ({ issueId: issueOf(await fx.issue()) }) }],
  reopenIssue: [
    {
      rest: 'PATCH /repos/{owner}/{repo}/issues/{index}',
      input: async (fx) => {
        const issue = await fx.issue();
        await fx.rest('PATCH', fx.issuePath(issue), { state: 'closed' });
        return { issueId: issueOf(issue) };
      },
    },
  ],
  createIssue: [
    {
      rest: 'POST /repos/{owner}/{repo}/issues',
      input: async (fx) => ({ repositoryId: (await repoGid(fx)).gid, title: 'new issue' }),
    },
  ],
  updateIssue: [
    { rest: 'PATCH /repos/{owner}/{repo}/issues/{index}', input: async (fx) => ({ id: issueOf(await fx.issue()), title: 'retitled' }) },
  ],
  createAccessToken: [
    {
      rest: 'POST /users/{username}/tokens',
      input: async (fx) => ({ login: 'root', name: fx.name('token'), scopes: ['read:user'] }),
      credential: 'password',
      publicOnlyExempt: 'tokens never manage tokens (refused to every token)',
    },
  ],
  deleteAccessToken: [
    {
      rest: 'DELETE /users/{username}/tokens/{token}',
      input: async (fx) => {
        const name = fx.name('token');
        await fx.t.createToken('root', ['read:user'], name);
        return { login: 'root', token: name };
      },
      credential: 'password',
      publicOnlyExempt: 'tokens never manage tokens (refused to every token)',
    },
  ],
  createDeployKey: [
    {
      rest: 'POST /repos/{owner}/{repo}/keys',
      input: async (fx) => ({ ...(await repoInput(fx)), title: fx.name('key'), key: fx.sshKey() }),
    },
  ],
  deleteDeployKey: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/keys/{id}',
      input: async (fx) => {
        const repo = await fx.repo();
        const key = await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/keys`, { title: fx.name('key'), key: fx.sshKey() });
        return { owner: repo.owner, name: repo.name, keyId: key.id as number };
      },
    },
  ],
  createLabel: [
    {
      label: 'in a repository',
      rest: 'POST /repos/{owner}/{repo}/labels',
      input: async (fx) => {
        const repo = await fx.repo();
        return { repositoryOwner: repo.owner, repositoryName: repo.name, name: 'bug', color: 'ff0000' };
      },
    },
    {
      label: 'in an organization',
      rest: 'POST /orgs/{org}/labels',
      input: async (fx) => ({ organizationLogin: await fx.org(), name: 'bug', color: 'ff0000' }),
    },
  ],
  updateLabel: [
    {
      label: 'of a repository',
      rest: 'PATCH /repos/{owner}/{repo}/labels/{id}',
      input: async (fx) => ({ id: (await fx.repoLabel(await fx.repo())).gid, name: 'renamed' }),
    },
    {
      label: 'of an organization',
      rest: 'PATCH /orgs/{org}/labels/{id}',
      input: async (fx) => ({ id: await orgLabel(fx), name: 'renamed' }),
    },
  ],
  deleteLabel: [
    {
      label: 'of a repository',
      rest: 'DELETE /repos/{owner}/{repo}/labels/{id}',
      input: async (fx) => ({ id: (await fx.repoLabel(await fx.repo())).gid }),
    },
    { label: 'of an organization', rest: 'DELETE /orgs/{org}/labels/{id}', input: async (fx) => ({ id: await orgLabel(fx) }) },
  ],
  createMilestone: [
    {
      rest: 'POST /repos/{owner}/{repo}/milestones',
      input: async (fx) => {
        const repo = await fx.repo();
        return { repositoryOwner: repo.owner, repositoryName: repo.name, title: 'v1' };
      },
    },
  ],
  updateMilestone: [
    { rest: 'PATCH /repos/{owner}/{repo}/milestones/{id}', input: async (fx) => ({ id: await milestone(fx), title: 'v2' }) },
  ],
  deleteMilestone: [{ rest: 'DELETE /repos/{owner}/{repo}/milestones/{id}', input: async (fx) => ({ id: await milestone(fx) }) }],
  createRelease: [
    {
      rest: 'POST /repos/{owner}/{repo}/releases',
      input: async (fx) => {
        const repo = await fx.repo({ git: true });
        return { repositoryOwner: repo.owner, repositoryName: repo.name, tagName: fx.name('v') };
      },
    },
  ],
  updateRelease: [{ rest: 'PATCH /repos/{owner}/{repo}/releases/{id}', input: async (fx) => ({ id: await release(fx), name: 'renamed' }) }],
  deleteRelease: [{ rest: 'DELETE /repos/{owner}/{repo}/releases/{id}', input: async (fx) => ({ id: await release(fx) }) }],
  updateReleaseAsset: [
    {
      rest: 'PATCH /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}',
      input: async (fx) => ({ id: await releaseAsset(fx), name: 'b.txt' }),
    },
  ],
  deleteReleaseAsset: [
    { rest: 'DELETE /repos/{owner}/{repo}/releases/{id}/assets/{attachment_id}', input: async (fx) => ({ id: await releaseAsset(fx) }) },
  ],
  createOrganization: [{ rest: 'POST /orgs', input: async (fx) => ({ login: fx.name('neworg') }), publicOnlyExempt: NEW_RESOURCE }],
  updateOrganization: [{ rest: 'PATCH /orgs/{org}', input: async (fx) => ({ login: await fx.org(), description: 'edited' }) }],
  deleteOrganization: [{ rest: 'DELETE /orgs/{org}', input: async (fx) => ({ login: await fx.org() }) }],
  removeOrganizationMember: [
    {
      rest: 'DELETE /orgs/{org}/members/{username}',
      input: async (fx) => ({ organizationLogin: (await teamWithMember(fx)).org, login: 'alice' }),
    },
  ],
  setOrganizationMembershipVisibility: [
    {
      rest: 'PUT /orgs/{org}/public_members/{username}',
      input: async (fx) => {
        const org = await fx.org();
        const row = await fx.t.db.orgUser.findFirstOrThrow({ where: { org: { lowerName: org }, user: { lowerName: 'root' } } });
        return { organizationLogin: org, isPublic: !row.isPublic };
      },
    },
  ],
  createProject: [
    {
      label: 'in a repository',
      rest: 'POST /repos/{owner}/{repo}/projects',
      input: async (fx) => {
        const repo = await fx.repo();
        return { repositoryOwner: repo.owner, repositoryName: repo.name, name: 'plans' };
      },
    },
    {
      label: 'in an organization',
      rest: 'POST /orgs/{org}/projects',
      input: async (fx) => ({ organizationLogin: await fx.org(), name: 'plans' }),
    },
  ],
  updateProject: [
    {
      label: 'of a repository',
      rest: 'PATCH /repos/{owner}/{repo}/projects/{id}',
      input: async (fx) => ({ projectId: (await fx.repoProject(await fx.repo())).gid, name: 'renamed' }),
    },
    {
      label: 'of an organization',
      rest: 'PATCH /orgs/{org}/projects/{id}',
      input: async (fx) => ({ projectId: await orgProject(fx), name: 'renamed' }),
    },
  ],
  deleteProject: [
    {
      label: 'of a repository',
      rest: 'DELETE /repos/{owner}/{repo}/projects/{id}',
      input: async (fx) => ({ projectId: (await fx.repoProject(await fx.repo())).gid }),
    },
    { label: 'of an organization', rest: 'DELETE /orgs/{org}/projects/{id}', input: async (fx) => ({ projectId: await orgProject(fx) }) },
  ],
  createRepository: [
    {
      label: 'for the viewer',
      rest: 'POST /user/repos',
      input: async (fx) => ({ name: fx.name('new'), isPrivate: true }),
      publicOnlyExempt: NEW_RESOURCE,
    },
    {
      label: 'in an organization',
      rest: 'POST /orgs/{org}/repos',
      input: async (fx) => ({ ownerLogin: await fx.org(), name: fx.name('new') }),
    },
    {
      label: 'for another user (site admins)',
      rest: 'POST /admin/users/{username}/repos',
      input: async (fx) => ({ ownerLogin: 'alice', name: fx.name('new') }),
      publicOnlyExempt: ADMIN_ONLY,
    },
  ],
  cloneTemplateRepository: [
    {
      rest: 'POST /repos/{template_owner}/{template_repo}/generate',
      input: async (fx) => {
        const r = await fx.repo({ git: true });
        const row = await fx.rest('PATCH', `/repos/${r.owner}/${r.name}`, { template: true });
        const root = await fx.rest('GET', '/user');
        return {
          repositoryId: encodeGlobalID('Repository', row.id as number),
          ownerId: encodeGlobalID('User', root.id as number),
          name: fx.name('gen'),
          visibility: 'PRIVATE',
        };
      },
    },
  ],
  renameUser: [
    {
      rest: 'POST /admin/users/{username}/rename',
      input: async (fx) => ({ login: await fx.newUser(), newLogin: fx.name('renamed') }),
      publicOnlyExempt: ADMIN_ONLY,
    },
  ],
  renameOrganization: [{ rest: 'POST /orgs/{org}/rename', input: async (fx) => ({ login: await fx.org(), newLogin: fx.name('org') }) }],
  updateRepository: [{ rest: 'PATCH /repos/{owner}/{repo}', input: async (fx) => ({ ...(await repoIdInput(fx)), isPrivate: false }) }],
  deleteRepository: [{ rest: 'DELETE /repos/{owner}/{repo}', input: repoInput }],
  createRef: [
    {
      rest: 'POST /repos/{owner}/{repo}/branches',
      input: async (fx) => {
        const { repositoryId, head } = await withHead(fx);
        return { repositoryId, name: `refs/heads/${fx.name('b')}`, oid: head };
      },
    },
  ],
  updateRef: [
    {
      rest: 'POST /repos/{owner}/{repo}/branches',
      input: async (fx) => {
        const { repo, head } = await withHead(fx);
        const name = fx.name('b');
        await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/branches`, { new_branch_name: name });
        return { refId: await fx.refId(repo, name), oid: head, force: true };
      },
    },
  ],
  deleteRef: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/branches/{branch}',
      input: async (fx) => {
        const { repo } = await withHead(fx);
        const name = fx.name('b');
        await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/branches`, { new_branch_name: name });
        return { refId: await fx.refId(repo, name) };
      },
    },
  ],
  createCommitOnBranch: [
    {
      rest: 'POST /repos/{owner}/{repo}/contents',
      input: async (fx) => {
        const { repo, head } = await withHead(fx);
        return {
          branch: { repositoryNameWithOwner: `${repo.owner}/${repo.name}`, branchName: 'main' },
          message: { headline: 'via graphql' },
          fileChanges: { additions: [{ path: `${fx.name('f')}.txt`, contents: Buffer.from('x').toString('base64') }] },
          expectedHeadOid: head,
        };
      },
    },
  ],
  transferRepository: [
    {
      rest: 'POST /repos/{owner}/{repo}/transfer',
      input: async (fx) => ({ ...(await repoInput(fx)), newOwnerLogin: await fx.newUser() }),
    },
  ],
  acceptRepositoryTransfer: [{ rest: 'POST /repos/{owner}/{repo}/transfer/accept', input: (fx) => pendingTransfer(fx) }],
  rejectRepositoryTransfer: [{ rest: 'POST /repos/{owner}/{repo}/transfer/reject', input: (fx) => pendingTransfer(fx) }],
  updateTopics: [
    { rest: 'PUT /repos/{owner}/{repo}/topics', input: async (fx) => ({ ...(await repoIdInput(fx)), topicNames: ['scope-test'] }) },
  ],
  forkRepository: [
    {
      rest: 'POST /repos/{owner}/{repo}/forks',
      input: async (fx) => {
        const repo = await fx.repo({ owner: 'alice', git: true });
        return { owner: repo.owner, name: repo.name };
      },
    },
  ],
  migrateRepository: [
    {
      rest: 'POST /repos/migrate',
      input: async (fx) => ({ cloneAddress: await localSource(fx), name: fx.name('migrated'), isPrivate: true }),
      publicOnlyExempt: NEW_RESOURCE,
    },
  ],
  syncMirror: [
    {
      rest: 'POST /repos/{owner}/{repo}/mirror-sync',
      input: async (fx) => {
        const name = fx.name('mirror');
        await fx.rest('POST', '/repos/migrate', { clone_addr: await localSource(fx), repo_name: name, mirror: true, private: true });
        return { owner: 'root', name };
      },
    },
  ],
  createUser: [
    {
      rest: 'POST /admin/users',
      input: async (fx) => {
        const login = fx.name('new');
        return { login, email: `${login}@example.com`, password: 'password123!' };
      },
      publicOnlyExempt: ADMIN_ONLY,
    },
  ],
  updateUser: [
    {
      rest: 'PATCH /admin/users/{username}',
      input: async (fx) => ({ login: await fx.newUser(), location: 'Lyon' }),
      publicOnlyExempt: ADMIN_ONLY,
    },
  ],
  deleteUser: [
    { rest: 'DELETE /admin/users/{username}', input: async (fx) => ({ login: await fx.newUser() }), publicOnlyExempt: ADMIN_ONLY },
  ],
  deletePackageVersion: [
    {
      rest: 'DELETE /packages/{owner}/{type}/{name}/{version}',
      input: async (fx) => ({ packageVersionId: (await orgPackage(fx)).versionGid }),
    },
  ],
  deletePackage: [{ rest: 'DELETE /packages/{owner}/{type}/{name}', input: async (fx) => ({ packageId: (await orgPackage(fx)).gid }) }],
  linkPackage: [
    {
      rest: 'POST /packages/{owner}/{type}/{name}/-/link/{repo_name}',
      input: async (fx) => {
        const p = await orgPackage(fx);
        const repo = await fx.repo({ org: p.org });
        return { packageId: p.gid, repositoryName: repo.name };
      },
    },
  ],
  unlinkPackage: [
    {
      rest: 'POST /packages/{owner}/{type}/{name}/-/unlink',
      input: async (fx) => {
        const p = await orgPackage(fx);
        const repo = await fx.repo({ org: p.org });
        await fx.rest('POST', `/packages/${p.org}/generic/${p.name}/-/link/${repo.name}`);
        return { packageId: p.gid };
      },
    },
  ],
  runCronTask: [
    { rest: 'POST /admin/cron/{task}', input: async () => ({ name: 'delete_old_system_notices' }), publicOnlyExempt: ADMIN_ONLY },
  ],
  addStar: [{ rest: 'PUT /user/starred/{owner}/{repo}', input: async (fx) => ({ starrableId: (await repoGid(fx)).gid }) }],
  removeStar: [
    {
      rest: 'DELETE /user/starred/{owner}/{repo}',
      input: async (fx) => {
        const repo = await repoGid(fx);
        await fx.rest('PUT', `/user/starred/${repo.owner}/${repo.name}`);
        return { starrableId: repo.gid };
      },
    },
  ],
  updateSubscription: [
    // root posted the issue (subscribed by taking part): unsubscribing writes an explicit unwatch.
    {
      label: 'issue',
      rest: 'DELETE /repos/{owner}/{repo}/issues/{index}/subscriptions/{user}',
      input: async (fx) => ({ subscribableId: issueOf(await fx.issue()), state: 'UNSUBSCRIBED' }),
    },
    // root watches its new repository: unsubscribing changes it.
    {
      label: 'repository',
      rest: 'DELETE /repos/{owner}/{repo}/subscription',
      input: async (fx) => ({ subscribableId: (await repoGid(fx)).gid, state: 'UNSUBSCRIBED' }),
    },
  ],
  markNotificationAsRead: [{ rest: 'PATCH /notifications/threads/{id}', input: async (fx) => ({ id: await notificationThread(fx) }) }],
  markNotificationAsUnread: [
    { rest: 'PATCH /notifications/threads/{id}', input: async (fx) => ({ id: await notificationThread(fx, 'READ') }) },
  ],
  markNotificationAsPinned: [{ rest: 'PATCH /notifications/threads/{id}', input: async (fx) => ({ id: await notificationThread(fx) }) }],
  markAllNotificationsAsRead: [
    {
      rest: 'PUT /notifications',
      input: async (fx) => {
        await notificationThread(fx);
        return {};
      },
    },
  ],
  createWebhook: [
    {
      label: 'of a repository',
      rest: 'POST /repos/{owner}/{repo}/hooks',
      input: async (fx) => {
        const repo = await fx.repo();
        return { repositoryOwner: repo.owner, repositoryName: repo.name, type: 'gitea', url: 'http://example.com/' };
      },
    },
    {
      label: 'of an organization',
      rest: 'POST /orgs/{org}/hooks',
      input: async (fx) => ({ organizationLogin: await fx.org(), type: 'gitea', url: 'http://example.com/' }),
    },
    {
      label: 'of the site',
      rest: 'POST /admin/hooks',
      input: async () => ({ site: 'SYSTEM', type: 'gitea', url: 'http://example.com/' }),
      publicOnlyExempt: ADMIN_ONLY,
    },
  ],
  updateWebhook: [{ rest: 'PATCH /repos/{owner}/{repo}/hooks/{id}', input: async (fx) => ({ id: await repoHook(fx), name: 'renamed' }) }],
  deleteWebhook: [{ rest: 'DELETE /repos/{owner}/{repo}/hooks/{id}', input: async (fx) => ({ id: await repoHook(fx) }) }],
  testWebhook: [{ rest: 'POST /repos/{owner}/{repo}/hooks/{id}/tests', input: async (fx) => ({ id: await repoHook(fx, true) }) }],
  redeliverWebhookDelivery: [
    {
      rest: 'POST /repos/{owner}/{repo}/hooks/{id}/deliveries/{delivery_id}/attempts',
      input: async (fx) => {
        const gid = await repoHook(fx, true);
        const hookId = Number(decodeGlobalID(gid).id);
        const task = await fx.t.db.hookTask.create({ data: { hookId, uuid: fx.name('uuid'), eventType: 'push', payloadContent: '{}' } });
        return { id: encodeGlobalID('WebhookDelivery', task.id) };
      },
    },
  ],
  createBranchProtectionRule: [
    {
      rest: 'POST /repos/{owner}/{repo}/branch_protections',
      input: async (fx) => {
        const repo = await fx.repo();
        const row = await fx.rest('GET', `/repos/${repo.owner}/${repo.name}`);
        return { repositoryId: encodeGlobalID('Repository', row.id as number), pattern: 'main' };
      },
    },
  ],
  updateBranchProtectionRule: [
    {
      rest: 'PATCH /repos/{owner}/{repo}/branch_protections/{name}',
      input: async (fx) => ({ branchProtectionRuleId: await protectionRule(fx), settings: { requiredApprovingReviewCount: 1 } }),
    },
  ],
  deleteBranchProtectionRule: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/branch_protections/{name}',
      input: async (fx) => ({ branchProtectionRuleId: await protectionRule(fx) }),
    },
  ],
  enablePullRequestAutoMerge: [
    {
      rest: 'POST /repos/{owner}/{repo}/pulls/{index}/merge',
      input: async (fx) => ({ pullRequestId: (await fx.pull()).gid }),
    },
  ],
  disablePullRequestAutoMerge: [
    {
      rest: 'DELETE /repos/{owner}/{repo}/pulls/{index}/merge',
      input: async (fx) => {
        const pull = await fx.pull();
        await fx.rest('POST', `/repos/${pull.repo.owner}/${pull.repo.name}/pulls/${pull.index}/merge`, {
          Do: 'merge',
          merge_when_checks_succeed: true,
        });
        return { pullRequestId: pull.gid };
      },
    },
  ],
  convertPullRequestToDraft: [
    { rest: 'PATCH /repos/{owner}/{repo}/pulls/{index}', input: async (fx) => ({ pullRequestId: (await fx.pull()).gid }) },
  ],
  markPullRequestReadyForReview: [
    {
      rest: 'PATCH /repos/{owner}/{repo}/pulls/{index}',
      input: async (fx) => {
        const pull = await fx.pull();
        await fx.rest('PATCH', `/repos/${pull.repo.owner}/${pull.repo.name}/pulls/${pull.index}`, { title: 'WIP: draft' });
        return { pullRequestId: pull.gid };
      },
    },
  ],
  closePullRequest: [
    { rest: 'PATCH /repos/{owner}/{repo}/pulls/{index}', input: async (fx) => ({ pullRequestId: (await fx.pull()).gid }) },
  ],
  reopenPullRequest: [
    {
      rest: 'PATCH /repos/{owner}/{repo}/pulls/{index}',
      input: async (fx) => {
        const pull = await fx.pull();
        await fx.rest('PATCH', `/repos/${pull.repo.owner}/${pull.repo.name}/pulls/${pull.index}`, { state: 'closed' });
        return { pullRequestId: pull.gid };
      },
    },
  ],
};

/** A fresh private repository of root with its global id. */
async function repoGid(fx: ScopeFixture): Promise<{ owner: string; name: string; gid: string }> {
  const repo = await fx.repo();
  const row = await fx.rest('GET', `/repos/${repo.owner}/${repo.name}`);
  return { ...repo, gid: encodeGlobalID('Repository', row.id as number) };
}

/** A notification thread of root (alice opens an issue in root's watched repository), optionally set to `status`. */
async function notificationThread(fx: ScopeFixture, status?: 'READ'): Promise<string> {
  const repo = await fx.repo();
  await fx.rest('PUT', `/repos/${repo.owner}/${repo.name}/collaborators/alice`, { permission: 'write' });
  await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/issues`, { title: fx.name('issue') }, 'alice');
  await fx.t.app.jobs.drain();
  const row = await fx.t.db.notification.findFirstOrThrow({ where: { user: { lowerName: 'root' }, repo: { lowerName: repo.name } } });
  if (status) await fx.t.db.notification.update({ where: { id: row.id }, data: { status } });
  return encodeGlobalID('NotificationThread', row.id);
}

async function release(fx: ScopeFixture): Promise<string> {
  const repo = await fx.repo({ git: true });
  const r = await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/releases`, { tag_name: fx.name('v') });
  return encodeGlobalID('Release', r.id as number);
}

async function releaseAsset(fx: ScopeFixture): Promise<string> {
  const repo = await fx.repo({ git: true });
  const r = await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/releases`, { tag_name: fx.name('v') });
  const root = await fx.t.db.user.findUniqueOrThrow({ where: { lowerName: 'root' } });
  const a = await assetService.createReleaseAsset(contextFor(fx.t, root), { owner: repo.owner, repo: repo.name }, r.id as number, {
    name: 'a.txt',
    content: Readable.from([Buffer.from('a')]),
  });
  return encodeGlobalID('ReleaseAsset', a.id);
}

/** A fresh repository hook (on a repository with a commit when `git`); returns its global id. */
async function repoHook(fx: ScopeFixture, git = false): Promise<string> {
  const repo = await fx.repo({ git });
  const hook = await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/hooks`, {
    type: 'gitea',
    config: { url: 'http://127.0.0.1:9/', content_type: 'json' },
  });
  return encodeGlobalID('Webhook', hook.id as number);
}

/** A private repository of alice with a pending transfer to a new user (alice is no site admin, so it waits). */
async function pendingTransfer(fx: ScopeFixture): Promise<Json> {
  const repo = await fx.repo({ owner: 'alice' });
  await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/transfer`, { new_owner: await fx.newUser() }, 'alice');
  return { owner: repo.owner, name: repo.name };
}

/** A repository with a commit, as a local path (root, a site admin, may migrate from local paths). */
async function localSource(fx: ScopeFixture): Promise<string> {
  const repo = await fx.repo({ git: true });
  return repoPath(fx.t.config.repositoriesDir, repo.owner, repo.name);
}

async function milestone(fx: ScopeFixture): Promise<string> {
  const repo = await fx.repo();
  const m = await fx.rest('POST', `/repos/${repo.owner}/${repo.name}/milestones`, { title: fx.name('milestone') });
  return encodeGlobalID('Milestone', m.id as number);
}
