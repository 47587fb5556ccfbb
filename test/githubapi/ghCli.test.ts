// GitHub's own CLI (Debian's `gh`) against the forge, unchanged (issue #32): GH_HOST names this server as a GitHub
// Enterprise host behind a local TLS terminator, GH_ENTERPRISE_TOKEN is one of our tokens. gh speaks GraphQL at
// /api/graphql and REST at /api/v3; each command's effect is checked through /api/v1.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { createRepo } from '../helpers/fixtures.ts';
import { GH, run, startGhHarness, type GhHarness } from '../helpers/ghHarness.ts';

describe.skipIf(!GH).each(CLIENT_PROVIDERS)('gh, GitHub CLI, against the forge (%s)', (provider) => {
  let h: GhHarness;
  let t: GhHarness['t'];
  let host: string;
  let home: string;
  let repo: string;
  let token: string;
  let tls: GhHarness['tls'];
  const gh = (...args: string[]) => h.gh(...args);
  const ghAs = (asToken: string, cwd: string, ...args: string[]) => h.ghAs(asToken, cwd, ...args);
  const v1 = (url: string) => h.v1(url);
  const branchWithFile = (branch: string, text?: string) => h.branchWithFile(branch, text);
  const ghPull = (branch: string, title: string) => h.ghPull(branch, title);

  beforeAll(async () => {
    h = await startGhHarness(provider);
    ({ t, host, home, repo, token, tls } = h);
    if (tls.port !== 443) console.warn("gh pr checkout not tried: cannot listen on a loopback address's port 443");
  });
  afterAll(async () => {
    await h?.close();
  });

  it('auth status: logged in as the token holder, with the token scopes in GitHub words', async () => {
    // gh prints its status on stderr; a failing check exits non-zero.
    const { stderr } = await run('gh', ['auth', 'status'], { env: h.env(token) });
    expect(stderr).toContain(`Logged in to ${host} as alice`);
    expect(stderr).toMatch(/Token scopes: .*\brepo\b/);
  });

  it('repo view and api graphql', async () => {
    const view = await gh('repo', 'view', 'alice/demo');
    expect(view).toContain('name:\talice/demo');
    expect(view).toContain('description:\ta demo');
    const api = JSON.parse(await gh('api', 'graphql', '-f', 'query={ viewer { login } }')) as { data: { viewer: { login: string } } };
    expect(api.data.viewer.login).toBe('alice');
  });

  it('issue comment, close, reopen, edit and list', async () => {
    const created = await t.request('POST', '/api/v1/repos/alice/demo/issues', {
      headers: basic('alice'),
      body: { title: 'Broken', body: 'it is' },
    });
    expect(created.statusCode).toBe(201);
    const n = String((created.json() as { number: number }).number);
    expect(await gh('issue', 'comment', n, '--body', 'looking', '-R', repo)).toContain(`/alice/demo/issues/${n}#issuecomment-`);
    expect((await v1(`/repos/alice/demo/issues/${n}/comments`)).map((c) => c.body)).toEqual(['looking']);
    await gh('issue', 'close', n, '-R', repo);
    expect((await v1(`/repos/alice/demo/issues/${n}`)).state).toBe('closed');
    await gh('issue', 'reopen', n, '-R', repo);
    expect((await v1(`/repos/alice/demo/issues/${n}`)).state).toBe('open');
    await gh('issue', 'edit', n, '--title', 'Broken badly', '-R', repo);
    expect((await v1(`/repos/alice/demo/issues/${n}`)).title).toBe('Broken badly');
    expect(await gh('issue', 'list', '-R', repo)).toMatch(new RegExp(`^${n}\\s+OPEN\\s+Broken badly`, 'm'));
  });

  it('issue create with a label, then issue view with its comments', async () => {
    await t.request('POST', '/api/v1/repos/alice/demo/labels', { headers: basic('alice'), body: { name: 'triage', color: '#aaaaaa' } });
    const url = (await gh('issue', 'create', '--title', 'From gh', '--body', 'made by gh', '--label', 'triage', '-R', repo)).trim();
    expect(url).toMatch(new RegExp(`^https://${host.replaceAll('.', '\\.')}/alice/demo/issues/\\d+$`));
    const n = url.split('/').pop()!;
    const issue = await v1(`/repos/alice/demo/issues/${n}`);
    expect(issue).toMatchObject({ title: 'From gh', body: 'made by gh' });
    expect((issue.labels as Array<{ name: string }>).map((l) => l.name)).toEqual(['triage']);
    await gh('issue', 'comment', n, '--body', 'first reply', '-R', repo);
    const view = await gh('issue', 'view', n, '--comments', '-R', repo);
    expect(view).toContain('first reply');
    const json = JSON.parse(await gh('issue', 'view', n, '--json', 'title,state,labels,author,comments', '-R', repo)) as {
      title: string;
      state: string;
      labels: { name: string }[];
      author: { login: string };
      comments: { body: string; authorAssociation: string }[];
    };
    expect(json).toMatchObject({ title: 'From gh', state: 'OPEN', labels: [{ name: 'triage' }], author: { login: 'alice' } });
    expect(json.comments).toEqual([expect.objectContaining({ body: 'first reply', authorAssociation: 'OWNER' })]);
    // A list with every issue's comments: within GitHub's node limit (it was refused by a field-weighted cost).
    const list = JSON.parse(await gh('issue', 'list', '--json', 'number,title,comments,labels,assignees', '-R', repo)) as Array<{
      number: number;
      comments: { body: string }[];
    }>;
    expect(list).toContainEqual(
      expect.objectContaining({ number: Number(n), comments: [expect.objectContaining({ body: 'first reply' })] }),
    );
  });

  it('pr create (and --draft, a WIP title) and pr merge', async () => {
    for (const branch of ['merge-me', 'draft-me']) await branchWithFile(branch);
    const url = (
      await gh('pr', 'create', '--head', 'merge-me', '--base', 'main', '--title', 'Merge me', '--body', 'ready', '-R', repo)
    ).trim();
    const n = url.split('/').pop()!;
    expect(await v1(`/repos/alice/demo/pulls/${n}`)).toMatchObject({
      title: 'Merge me',
      body: 'ready',
      draft: false,
      head: { ref: 'merge-me' },
    });
    const draftUrl = (
      await gh('pr', 'create', '--draft', '--head', 'draft-me', '--base', 'main', '--title', 'Not yet', '--body', '', '-R', repo)
    ).trim();
    expect(await v1(`/repos/alice/demo/pulls/${draftUrl.split('/').pop()!}`)).toMatchObject({ title: 'WIP: Not yet', draft: true });

    await gh('pr', 'merge', n, '--merge', '-R', repo);
    expect(await v1(`/repos/alice/demo/pulls/${n}`)).toMatchObject({ state: 'closed', merged: true });
    expect(await gh('pr', 'view', n, '-R', repo)).toContain('state:\tMERGED');
  });

  it('release create, view and list', async () => {
    expect((await gh('release', 'create', 'v1.0.0', '--title', 'First', '--notes', 'The first one', '-R', repo)).trim()).toBe(
      `https://${host}/alice/demo/releases/tag/v1.0.0`,
    );
    expect(await v1('/repos/alice/demo/releases/tags/v1.0.0')).toMatchObject({
      tag_name: 'v1.0.0',
      name: 'First',
      body: 'The first one',
      draft: false,
      prerelease: false,
    });
    const view = await gh('release', 'view', 'v1.0.0', '-R', repo);
    expect(view).toContain('title:\tFirst');
    expect(view).toContain('author:\talice');
    expect(view).toContain('The first one');
    expect(await gh('release', 'list', '-R', repo)).toMatch(/^First\tLatest\tv1\.0\.0\t/m);
    await expect(gh('release', 'view', 'v9', '-R', repo)).rejects.toThrow(/release not found/);
  });

  it('label create (and --force for an existing name) and label list', async () => {
    await gh('label', 'create', 'bug', '--color', 'ff0000', '--description', 'Something is wrong', '-R', repo);
    await expect(gh('label', 'create', 'bug', '--color', '00ff00', '-R', repo)).rejects.toThrow(/already exists/);
    await gh('label', 'create', 'bug', '--color', '00ff00', '--force', '-R', repo);
    const labels = (await v1('/repos/alice/demo/labels'))
      .filter((l) => l.name === 'bug')
      .map((l) => ({ name: l.name, color: l.color, description: l.description }));
    expect(labels).toEqual([{ name: 'bug', color: '00ff00', description: 'Something is wrong' }]);
    expect(await gh('label', 'list', '-R', repo)).toMatch(/^bug\s+Something is wrong\s+#00ff00$/m);
    // The REST answer's node_id is the label's id in the graph.
    const again = await t.request('POST', '/api/v3/repos/alice/demo/labels', {
      headers: { authorization: `token ${token}` },
      body: { name: 'docs', color: '0000ff' },
    });
    expect(again.statusCode).toBe(201);
    const graph = await t.graphql('{ repository(owner: "alice", name: "demo") { label(name: "docs") { id } } }', {}, basic('alice'));
    expect((again.json() as { node_id: string }).node_id).toBe(
      (graph.json() as { data: { repository: { label: { id: string } } } }).data.repository.label.id,
    );
  });

  it('repo clone over https through the same host', async () => {
    await gh('repo', 'clone', 'alice/demo', path.join(home, 'demo'));
    const { stdout } = await run('git', ['-C', path.join(home, 'demo'), 'log', '--format=%s']);
    expect(stdout.trim().split('\n').length).toBeGreaterThan(0);
  });

  it('pr list and release list answer for a repository without any', async () => {
    await createRepo(t, await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } }), 'quiet', { autoInit: true });
    await expect(gh('pr', 'list', '-R', `${host}/alice/quiet`)).resolves.toBe('');
    await expect(gh('release', 'list', '-R', `${host}/alice/quiet`)).resolves.toBe('');
  });

  it('pr view, pr status and pr checks of a pull request with a commit status', async () => {
    const sha = await branchWithFile('feature');
    const opened = await t.request('POST', '/api/v1/repos/alice/demo/pulls', {
      headers: basic('alice'),
      body: { head: 'feature', base: 'main', title: 'Add the feature', body: 'Please merge.' },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const n = String((opened.json() as { number: number }).number);
    const status = await t.request('POST', `/api/v1/repos/alice/demo/statuses/${sha}`, {
      headers: basic('alice'),
      body: { state: 'success', context: 'ci/test', description: 'all green', target_url: 'https://ci.example/1' },
    });
    expect(status.statusCode, status.body).toBe(201);

    expect(await gh('pr', 'list', '-R', repo)).toMatch(new RegExp(`^${n}\\s+Add the feature\\s+feature\\s+OPEN`, 'm'));
    const view = await gh('pr', 'view', n, '-R', repo);
    expect(view).toContain('title:\tAdd the feature');
    expect(view).toContain('state:\tOPEN');
    expect(view).toContain('Please merge.');
    const json = JSON.parse(await gh('pr', 'view', n, '--json', 'number,headRefName,baseRefName,author,statusCheckRollup', '-R', repo)) as {
      number: number;
      headRefName: string;
      baseRefName: string;
      author: { login: string };
      statusCheckRollup: { context: string; state: string }[];
    };
    expect(json).toMatchObject({ number: Number(n), headRefName: 'feature', baseRefName: 'main', author: { login: 'alice' } });
    expect(json.statusCheckRollup).toEqual([expect.objectContaining({ context: 'ci/test', state: 'SUCCESS' })]);
    expect(await gh('pr', 'checks', n, '-R', repo)).toMatch(/^ci\/test\tpass\t/m);
    expect(await gh('pr', 'status', '-R', repo)).toMatch(new RegExp(`Created by you\\s+#${n}\\s+Add the feature \\[feature\\]`));
  });

  it('issue create with --assignee and --milestone', async () => {
    await t.createUser('carol');
    const collab = await t.request('PUT', '/api/v1/repos/alice/demo/collaborators/carol', {
      headers: basic('alice'),
      body: { permission: 'write' },
    });
    expect(collab.statusCode, collab.body).toBe(204);
    const ms = await t.request('POST', '/api/v1/repos/alice/demo/milestones', { headers: basic('alice'), body: { title: 'v1' } });
    expect(ms.statusCode, ms.body).toBe(201);
    const url = (
      await gh('issue', 'create', '--title', 'Assigned', '--body', 'to carol', '--assignee', 'carol', '--milestone', 'v1', '-R', repo)
    ).trim();
    const issue = await v1(`/repos/alice/demo/issues/${url.split('/').pop()!}`);
    expect((issue.assignees as Array<{ login: string }>).map((a) => a.login)).toEqual(['carol']);
    expect((issue.milestone as { title: string }).title).toBe('v1');
  });

  it('pr diff, pr review --approve by another user, pr checkout, pr merge --delete-branch', async () => {
    await t.createUser('dave');
    const collab = await t.request('PUT', '/api/v1/repos/alice/demo/collaborators/dave', {
      headers: basic('alice'),
      body: { permission: 'write' },
    });
    expect(collab.statusCode, collab.body).toBe(204);
    const daveToken = await t.createToken('dave', ['all']);
    const sha = await branchWithFile('reviewed', 'reviewed line\n');
    const n = await ghPull('reviewed', 'Review me');

    const diff = await gh('pr', 'diff', n, '-R', repo);
    expect(diff).toContain('diff --git a/reviewed.txt b/reviewed.txt');
    expect(diff).toContain('+reviewed line');

    await ghAs(daveToken, home, 'pr', 'review', n, '--approve', '--body', 'ship it', '-R', repo);
    const reviews = await v1(`/repos/alice/demo/pulls/${n}/reviews`);
    expect(reviews.map((r) => ({ state: r.state, body: r.body, user: (r.user as { login: string }).login }))).toEqual([
      { state: 'APPROVED', body: 'ship it', user: 'dave' },
    ]);
    // Approving one's own pull request is refused, as on GitHub.
    await expect(gh('pr', 'review', n, '--approve', '-R', repo)).rejects.toThrow(/approve your own/i);

    if (tls.port === 443) {
      const clone = path.join(home, 'checkout');
      await gh('repo', 'clone', 'alice/demo', clone);
      await ghAs(token, clone, 'pr', 'checkout', n);
      const { stdout: branch } = await run('git', ['-C', clone, 'rev-parse', '--abbrev-ref', 'HEAD']);
      expect(branch.trim()).toBe('reviewed');
      const { stdout: head } = await run('git', ['-C', clone, 'rev-parse', 'HEAD']);
      expect(head.trim()).toBe(sha);
    }

    await gh('pr', 'merge', n, '--squash', '--delete-branch', '-R', repo);
    expect(await v1(`/repos/alice/demo/pulls/${n}`)).toMatchObject({ state: 'closed', merged: true });
    const gone = await t.request('GET', '/api/v1/repos/alice/demo/branches/reviewed', { headers: basic('alice') });
    expect(gone.statusCode).toBe(404);
  });

  it('repo fork: a fork in the token holder’s account, and the same fork again', async () => {
    await t.createUser('erin');
    const erinToken = await t.createToken('erin', ['all']);
    const out = await ghAs(erinToken, home, 'repo', 'fork', 'alice/demo', '--clone=false');
    const fork = await t.request('GET', '/api/v1/repos/erin/demo', { headers: basic('erin') });
    expect(fork.statusCode, `${out}\n${fork.body}`).toBe(200);
    expect(fork.json()).toMatchObject({ fork: true, parent: { full_name: 'alice/demo' } });
    // GitHub answers a second fork with the existing one; gh says so instead of failing.
    await expect(ghAs(erinToken, home, 'repo', 'fork', 'alice/demo', '--clone=false')).resolves.toBeDefined();
    const forks = await t.request('GET', '/api/v1/repos/alice/demo/forks', { headers: basic('alice') });
    expect((forks.json() as Array<{ full_name: string }>).map((f) => f.full_name)).toEqual(['erin/demo']);
  });

  it('release create with files, release upload (--clobber) and release download', async () => {
    const files = path.join(home, 'assets');
    mkdirSync(files, { recursive: true });
    writeFileSync(path.join(files, 'app.tar.gz'), Buffer.from([0x1f, 0x8b, 0, 1, 2, 3, 255]));
    writeFileSync(path.join(files, 'notes.json'), '{"a":1}\n');
    await gh('release', 'create', 'v2.0.0', path.join(files, 'app.tar.gz'), '--title', 'Second', '--notes', 'with files', '-R', repo);
    const release = await v1('/repos/alice/demo/releases/tags/v2.0.0');
    expect(release).toMatchObject({ draft: false, name: 'Second' });
    expect((release.assets as Array<{ name: string; size: number }>).map((a) => [a.name, a.size])).toEqual([['app.tar.gz', 7]]);

    // A JSON file is uploaded as its bytes, not read as a request body.
    await gh('release', 'upload', 'v2.0.0', path.join(files, 'notes.json'), '-R', repo);
    await expect(gh('release', 'upload', 'v2.0.0', path.join(files, 'notes.json'), '-R', repo)).rejects.toThrow(/already exists/);
    writeFileSync(path.join(files, 'notes.json'), '{"a":2,"b":3}\n');
    await gh('release', 'upload', 'v2.0.0', path.join(files, 'notes.json'), '--clobber', '-R', repo);
    const assets = (await v1('/repos/alice/demo/releases/tags/v2.0.0')).assets as Array<{ name: string; size: number }>;
    expect(assets.map((a) => [a.name, a.size]).sort()).toEqual([
      ['app.tar.gz', 7],
      ['notes.json', 14],
    ]);

    const into = path.join(home, 'downloaded');
    await gh('release', 'download', 'v2.0.0', '-D', into, '-R', repo);
    expect(readFileSync(path.join(into, 'app.tar.gz'))).toEqual(Buffer.from([0x1f, 0x8b, 0, 1, 2, 3, 255]));
    expect(readFileSync(path.join(into, 'notes.json'), 'utf8')).toBe('{"a":2,"b":3}\n');
  });

  it('pr comment, pr close and reopen, label delete', async () => {
    await branchWithFile('talk');
    const n = await ghPull('talk', 'Talk');
    expect(await gh('pr', 'comment', n, '--body', 'on the pull request', '-R', repo)).toContain(`/alice/demo/pulls/${n}#issuecomment-`);
    expect((await v1(`/repos/alice/demo/issues/${n}/comments`)).map((c) => c.body)).toEqual(['on the pull request']);
    await gh('pr', 'close', n, '-R', repo);
    expect(await v1(`/repos/alice/demo/pulls/${n}`)).toMatchObject({ state: 'closed', merged: false });
    await gh('pr', 'reopen', n, '-R', repo);
    expect(await v1(`/repos/alice/demo/pulls/${n}`)).toMatchObject({ state: 'open' });

    await gh('label', 'create', 'doomed', '--color', '123456', '-R', repo);
    await gh('label', 'delete', 'doomed', '--yes', '-R', repo);
    expect((await v1('/repos/alice/demo/labels')).map((l) => l.name)).not.toContain('doomed');
    await expect(gh('label', 'delete', 'doomed', '--yes', '-R', repo)).rejects.toThrow(/404|not found/i);
  });

  it('repo create, public and private', async () => {
    await gh('repo', 'create', 'made-by-gh', '--public', '--description', 'from gh');
    expect(await v1('/repos/alice/made-by-gh')).toMatchObject({ private: false, description: 'from gh', has_issues: true, has_wiki: true });
    await gh('repo', 'create', 'secret-by-gh', '--private', '--disable-issues', '--disable-wiki');
    expect(await v1('/repos/alice/secret-by-gh')).toMatchObject({ private: true, has_issues: false, has_wiki: false });
  });
});
