import { GitClient, gitUrl } from '../githttp/gitClient.ts';
import { basic, PASSWORD, type TestApp } from './app.ts';
import type { FuzzWorld } from './fuzz.ts';

async function must(t: TestApp, method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<unknown> {
  const res = await t.request(method, url, { headers, ...(body === undefined ? {} : { body }) });
  if (res.statusCode >= 300) throw new Error(`fuzz seed: ${method} ${url} → ${res.statusCode} ${res.body}`);
  return res.body ? res.json() : undefined;
}

/**
 * Seeds what the generated requests name: users (one admin), an organization with a team, public and private
 * repositories with issues, labels, a milestone, a second branch and a pull request; tokens for the actors.
 * Starts the server on a loopback port (the branch is pushed with the git client).
 */
export async function seedFuzzWorld(t: TestApp): Promise<FuzzWorld> {
  await t.createUser('fuzzadmin', { admin: true });
  await t.createUser('fuzzuser');
  await t.createUser('victim');
  await t.createUser('scratchuser');
  const user = basic('fuzzuser');
  await must(t, 'POST', '/api/v1/user/repos', user, { name: 'scratch', auto_init: true, default_branch: 'main' });
  await must(t, 'POST', '/api/v1/orgs', user, { username: 'scratchorg' });
  await must(t, 'POST', '/api/v1/user/repos', user, { name: 'pub', auto_init: true, default_branch: 'main' });
  await must(t, 'POST', '/api/v1/user/repos', user, { name: 'priv', auto_init: true, private: true, default_branch: 'main' });
  await must(t, 'POST', '/api/v1/orgs', user, { username: 'fuzzorg' });
  await must(t, 'POST', '/api/v1/orgs/fuzzorg/repos', user, { name: 'orgrepo', auto_init: true, default_branch: 'main' });
  await must(t, 'POST', '/api/v1/orgs/fuzzorg/teams', user, { name: 'crew', permission: 'write', units: ['repo.code', 'repo.issues'] });
  await must(t, 'POST', '/api/v1/repos/fuzzuser/pub/labels', user, { name: 'bug', color: '#ee0701' });
  await must(t, 'POST', '/api/v1/orgs/fuzzorg/labels', user, { name: 'org-bug', color: '#ee0701' });
  await must(t, 'POST', '/api/v1/repos/fuzzuser/pub/milestones', user, { title: 'v1' });
  for (const title of ['first', 'second', 'third'])
    await must(t, 'POST', '/api/v1/repos/fuzzuser/pub/issues', user, { title, labels: [1] });
  await must(t, 'POST', '/api/v1/repos/fuzzuser/pub/issues/1/comments', user, { body: 'a comment' });
  await must(t, 'PUT', '/api/v1/repos/fuzzuser/pub/collaborators/victim', user, { permission: 'read' });

  if (!t.app.server.server.listening) await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const git = new GitClient();
  try {
    const dir = git.dir('pub');
    await git.ok(['clone', '-q', gitUrl(port, 'fuzzuser', 'pub', { user: 'fuzzuser', secret: PASSWORD }), dir]);
    await git.ok(['checkout', '-q', '-b', 'feature'], { cwd: dir });
    await git.commit(dir, 'dir/file.txt', 'feature work\n');
    await git.ok(['push', '-q', 'origin', 'feature'], { cwd: dir });
  } finally {
    git.dispose();
  }
  await t.app.deps.notifier.drain();
  await must(t, 'POST', '/api/v1/repos/fuzzuser/pub/pulls', user, { head: 'feature', base: 'main', title: 'a pull request' });
  await t.app.deps.notifier.drain();

  const token = (scopes: string[], owner = 'fuzzuser') => t.createToken(owner, scopes).then((s) => ({ authorization: `token ${s}` }));
  return {
    actors: {
      anonymous: {},
      user: await token(['all']),
      readOnly: await token(['read:repository', 'read:issue', 'read:organization', 'read:user']),
      publicOnly: await token(['public-only', 'read:repository', 'read:issue']),
      collaborator: await token(['all'], 'victim'),
      admin: await token(['all'], 'fuzzadmin'),
      sudo: { ...(await token(['all'], 'fuzzadmin')), sudo: 'victim' },
      badPassword: basic('fuzzuser', 'wrong-password'),
    },
    names: {
      owner: ['fuzzuser', 'fuzzuser', 'fuzzuser', 'fuzzuser', 'fuzzorg', 'victim', 'nobody'],
      repo: ['pub', 'pub', 'pub', 'pub', 'priv', 'orgrepo', 'missing'],
      org: ['fuzzorg', 'nobody', 'fuzzuser'],
      username: ['fuzzuser', 'victim', 'nobody'],
      user: ['fuzzuser', 'victim'],
      collaborator: ['victim', 'fuzzuser', 'nobody'],
      assignee: ['fuzzuser', 'victim'],
      index: ['1', '2', '3', '4', '9'],
      id: ['1', '2', '3', '5', '40'],
      branch: ['main', 'feature', 'nope', 'a/b'],
      filepath: ['README.md', 'dir', 'dir/file.txt', 'nope'],
      base: ['main', 'feature'],
      head: ['feature', 'main', 'victim:feature'],
      sha: ['a'.repeat(40), '0'.repeat(40)],
      token: ['1', 't-name'],
      diffType: ['diff', 'patch', 'txt'],
    },
    repositories: [
      ['fuzzuser', 'pub'],
      ['fuzzuser', 'pub'],
      ['fuzzuser', 'pub'],
      ['fuzzuser', 'priv'],
      ['fuzzorg', 'orgrepo'],
    ],
    operationNames: {
      ...Object.fromEntries(['repoDelete', 'repoEdit'].map((op) => [op, { owner: ['fuzzuser', 'nobody'], repo: ['scratch', 'missing'] }])),
      ...Object.fromEntries(['orgDelete', 'orgEdit'].map((op) => [op, { org: ['scratchorg', 'nobody'] }])),
      ...Object.fromEntries(
        ['adminDeleteUser', 'adminEditUser', 'userDeleteAccessToken'].map((op) => [op, { username: ['scratchuser', 'nobody'] }]),
      ),
    },
  };
}
