import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../helpers/serverProcess.ts';
import type { components } from '@octokit/openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBranchAndTagRefs } from '../../../src/git/remoteMirror.ts';
import { repoPath } from '../../../src/git/repoPath.ts';
import { basic, PASSWORD, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { GitClient, gitUrl } from '../../githttp/gitClient.ts';

type S = components['schemas'];
type User = Pick<S['simple-user'], 'login' | 'id'>;
type Label = Pick<S['label'], 'name' | 'color' | 'description'>;
type Milestone = Pick<S['milestone'], 'title' | 'description' | 'state' | 'due_on' | 'created_at' | 'closed_at'>;
type Issue = Pick<S['issue'], 'number' | 'title' | 'body' | 'state' | 'locked' | 'created_at' | 'updated_at' | 'closed_at'> & {
  user: User;
  labels: Pick<S['label'], 'name'>[];
  milestone: Pick<S['milestone'], 'title'> | null;
  pull_request?: Pick<NonNullable<S['issue']['pull_request']>, 'url'>;
};
type Comment = Pick<S['issue-comment'], 'id' | 'issue_url' | 'body' | 'created_at' | 'updated_at'> & { user: User };
type Reaction = Pick<S['reaction'], 'content'> & { user: User };
type Pull = Pick<
  S['pull-request-simple'],
  'number' | 'title' | 'body' | 'state' | 'locked' | 'created_at' | 'updated_at' | 'closed_at' | 'merged_at' | 'merge_commit_sha'
> & {
  user: User;
  labels: Pick<S['label'], 'name'>[];
  milestone: null;
  head: Pick<S['pull-request-simple']['head'], 'ref' | 'sha'>;
  base: Pick<S['pull-request-simple']['base'], 'ref'>;
};
type Review = Pick<S['pull-request-review'], 'state' | 'body' | 'commit_id' | 'submitted_at'> & { user: User };
type Release = Pick<S['release'], 'tag_name' | 'target_commitish' | 'name' | 'body' | 'draft' | 'prerelease' | 'created_at'> & {
  author: User;
  assets: Pick<S['release-asset'], 'name' | 'size' | 'download_count' | 'created_at' | 'browser_download_url'>[];
};

/** The github downloader against a local server answering in GitHub's documented shapes (@octokit/openapi-types). */
describe.each(PROVIDERS)('POST /repos/migrate service=github (%s)', (provider) => {
  let source: TestApp;
  let target: TestApp;
  let gh: Server;
  let ghPort: number;
  let git: GitClient;
  const seen: string[] = [];
  let headSha = '';

  beforeAll(async () => {
    const port = await freePort();
    source = await startTestApp(provider, { ROOT_URL: `http://127.0.0.1:${port}/` });
    await source.app.server.listen({ port, host: '127.0.0.1' });
    target = await startTestApp(provider, { MIGRATIONS_ALLOW_LOCALNETWORKS: 'true' });
    await source.createUser('alice');
    await target.createUser('bob');
    expect(
      (await source.request('POST', '/api/v1/user/repos', { headers: basic('alice'), body: { name: 'hub', auto_init: true } })).statusCode,
    ).toBe(201);
    git = new GitClient();
    const work = git.dir('hub');
    await git.ok(['clone', '-q', gitUrl(port, 'alice', 'hub', { user: 'alice', secret: PASSWORD }), work]);
    await git.ok(['checkout', '-q', '-b', 'topic'], { cwd: work });
    headSha = await git.commit(work, 't.txt', 't\n');
    await git.ok(['push', '-q', 'origin', 'topic'], { cwd: work });
    await source.app.jobs.drain();

    const octo: User = { login: 'octocat', id: 583231 };
    const hubot: User = { login: 'hubot', id: 1 };
    const t0 = '2024-01-02T03:04:05Z';
    const routes: Record<string, unknown> = {
      '/api/v3/repos/octo/hub': { clone_url: `http://127.0.0.1:${port}/alice/hub.git`, full_name: 'octo/hub' },
      '/api/v3/repos/octo/hub/labels': [{ name: 'bug', color: 'd73a4a', description: 'Something is wrong' }] satisfies Label[],
      '/api/v3/repos/octo/hub/milestones': [
        { title: 'v1.0', description: 'Tracking', state: 'open', due_on: '2030-01-01T00:00:00Z', created_at: t0, closed_at: null },
      ] satisfies Milestone[],
      '/api/v3/repos/octo/hub/issues': [
        {
          number: 1,
          title: 'Found a bug',
          body: 'It breaks',
          state: 'open',
          locked: false,
          created_at: t0,
          updated_at: t0,
          closed_at: null,
          user: octo,
          labels: [{ name: 'bug' }],
          milestone: { title: 'v1.0' },
        },
        {
          number: 2,
          title: 'Add topic',
          body: 'PR body',
          state: 'open',
          locked: false,
          created_at: t0,
          updated_at: t0,
          closed_at: null,
          user: hubot,
          labels: [],
          milestone: null,
          pull_request: { url: 'http://x/pulls/2' },
        },
      ] satisfies Issue[],
      '/api/v3/repos/octo/hub/issues/1/reactions': [{ content: '+1', user: hubot }] satisfies Reaction[],
      '/api/v3/repos/octo/hub/issues/2/reactions': [] satisfies Reaction[],
      '/api/v3/repos/octo/hub/issues/comments': [
        { id: 10, issue_url: 'http://x/repos/octo/hub/issues/1', body: 'Me too', created_at: t0, updated_at: t0, user: hubot },
        { id: 11, issue_url: 'http://x/repos/octo/hub/issues/2', body: 'Nice', created_at: t0, updated_at: t0, user: octo },
      ] satisfies Comment[],
      '/api/v3/repos/octo/hub/issues/comments/10/reactions': [{ content: 'heart', user: octo }] satisfies Reaction[],
      '/api/v3/repos/octo/hub/issues/comments/11/reactions': [] satisfies Reaction[],
      '/api/v3/repos/octo/hub/pulls': [
        {
          number: 2,
          title: 'Add topic',
          body: 'PR body',
          state: 'open',
          locked: false,
          created_at: t0,
          updated_at: t0,
          closed_at: null,
          merged_at: null,
          merge_commit_sha: null,
          user: hubot,
          labels: [],
          milestone: null,
          head: { ref: 'topic', sha: headSha },
          base: { ref: 'main' },
        },
      ] satisfies Pull[],
      '/api/v3/repos/octo/hub/pulls/2/reviews': [
        { state: 'APPROVED', body: 'LGTM', commit_id: headSha, submitted_at: t0, user: octo },
      ] satisfies Review[],
      '/api/v3/repos/octo/hub/releases': [
        {
          tag_name: 'v0.1',
          target_commitish: 'main',
          name: 'First',
          body: 'Notes',
          draft: false,
          prerelease: true,
          created_at: t0,
          author: octo,
          assets: [],
        },
      ] satisfies Release[],
    };
    gh = createHttpServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push(`${url.pathname} ${req.headers.authorization ?? ''}`);
      const body = routes[url.pathname];
      const page = Number(url.searchParams.get('page') ?? '1');
      res.setHeader('content-type', 'application/json');
      if (body === undefined) {
        res.statusCode = 404;
        res.end(JSON.stringify({ message: 'Not Found' }));
        return;
      }
      res.end(JSON.stringify(Array.isArray(body) && page > 1 ? [] : body));
    });
    await new Promise<void>((resolve) => gh.listen(0, '127.0.0.1', resolve));
    ghPort = (gh.address() as AddressInfo).port;
  });
  afterAll(async () => {
    git?.dispose();
    await new Promise((resolve) => gh?.close(resolve));
    await source?.close();
    await target?.close();
  });

  it('migrates labels, milestones, issues, repository-wide comments, reactions, pulls, reviews and releases', async () => {
    // One token for the API and the clone (the clone URL the API names is the second instance's).
    const token = await source.createToken('alice');
    const res = await target.request('POST', '/api/v1/repos/migrate', {
      headers: basic('bob'),
      body: {
        clone_addr: `http://127.0.0.1:${ghPort}/octo/hub`,
        repo_name: 'hub',
        service: 'github',
        auth_token: token,
        labels: true,
        milestones: true,
        issues: true,
        pull_requests: true,
        releases: true,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((s) => s.endsWith(`token ${token}`))).toBe(true);
    const get = async (path: string) => (await target.request('GET', `/api/v1/repos/bob/hub${path}`, { headers: basic('bob') })).json();
    expect(await get('/labels')).toMatchObject([{ name: 'bug', color: 'd73a4a', description: 'Something is wrong' }]);
    expect(await get('/milestones')).toMatchObject([{ title: 'v1.0', open_issues: 1 }]);
    const issue = await get('/issues/1');
    expect(issue).toMatchObject({
      title: 'Found a bug',
      original_author: 'octocat',
      original_author_id: 583231,
      comments: 1,
      labels: [{ name: 'bug' }],
    });
    expect(await get('/issues/1/comments')).toMatchObject([{ body: 'Me too', original_author: 'hubot' }]);
    const pull = await get('/pulls/2');
    expect(pull).toMatchObject({ title: 'Add topic', head: { ref: 'topic', sha: headSha }, base: { ref: 'main' }, state: 'open' });
    expect(await get('/releases')).toMatchObject([{ tag_name: 'v0.1', name: 'First', prerelease: true }]);
    const repo = await target.db.repository.findFirstOrThrow({ where: { name: 'hub' } });
    expect(repo).toMatchObject({ numIssues: 1, numPulls: 1, originalServiceType: 'GITHUB' });
    expect(
      await target.db.review.findMany({ where: { issue: { repoId: repo.id } }, select: { type: true, originalAuthor: true } }),
    ).toEqual([{ type: 'APPROVE', originalAuthor: 'octocat' }]);
    expect(await target.db.reaction.count({ where: { issue: { repoId: repo.id } } })).toBe(2);
    expect(await readBranchAndTagRefs(repoPath(target.config.repositoriesDir, 'bob', 'hub'))).toEqual(
      await readBranchAndTagRefs(repoPath(source.config.repositoriesDir, 'alice', 'hub')),
    );
  });
});
