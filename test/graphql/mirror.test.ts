import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from '../../src/git/repoPath.ts';
import { basic, startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { gql, mutationError } from '../helpers/graphql.ts';
import { readBranchAndTagRefs } from '../../src/git/remoteMirror.ts';
import { GitClient } from '../githttp/gitClient.ts';

const MIGRATE = `mutation($input: MigrateRepositoryInput!) {
  migrateRepository(input: $input) {
    repository { nameWithOwner status isMirror mirrorUrl mirrorInterval mirrorLastSyncAt isEmpty }
  }
}`;

/** Migrations and mirrors in the graph: the same service as POST /repos/migrate and mirror-sync. */
describe.each(PROVIDERS)('GraphQL migrateRepository, syncMirror and mirror fields (%s)', (provider) => {
  let t: TestApp;
  let source: string;

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('root', { admin: true });
    await t.createUser('alice');
    expect(
      (await t.request('POST', '/api/v1/user/repos', { headers: basic('root'), body: { name: 'src', auto_init: true } })).statusCode,
    ).toBe(201);
    source = repoPath(t.config.repositoriesDir, 'root', 'src');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('migrates a local source as a mirror (site admin) and shows the mirror details; readers see no push mirrors', async () => {
    const res = await gql<{ migrateRepository: { repository: Record<string, unknown> | null } | null }>(t, MIGRATE, {
      headers: basic('root'),
      variables: { input: { cloneAddress: source, name: 'copy', mirror: true, mirrorInterval: '1h' } },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data?.migrateRepository?.repository).toMatchObject({
      nameWithOwner: 'root/copy',
      status: 'READY',
      isMirror: true,
      mirrorUrl: source,
      mirrorInterval: '1h0m0s',
      isEmpty: false,
    });
    expect(res.data?.migrateRepository?.repository?.mirrorLastSyncAt).toEqual(expect.any(String));
    const q = `{ repository(owner: "root", name: "copy") { pushMirrors { remoteName } status } }`;
    expect((await gql<{ repository: { pushMirrors: unknown[] } }>(t, q, { headers: basic('alice') })).data?.repository.pushMirrors).toEqual(
      [],
    );
  });

  it('refuses local paths to users without allow_import_local, with the REST message', async () => {
    const res = await gql<{ migrateRepository: unknown }>(t, MIGRATE, {
      headers: basic('alice'),
      variables: { input: { cloneAddress: source, name: 'nope' } },
    });
    expect(res.data?.migrateRepository).toBeNull();
    expect(mutationError(res, 'migrateRepository')?.message).toBe('You are not allowed to import local repositories.');
  });

  it('syncMirror queues a sync; on a repository that is not a mirror it is refused', async () => {
    const sync = `mutation($owner: String!, $name: String!) { syncMirror(input: { owner: $owner, name: $name }) {
      repository { nameWithOwner } } }`;
    const ok = await gql<{ syncMirror: { repository: unknown } | null }>(t, sync, {
      headers: basic('root'),
      variables: { owner: 'root', name: 'copy' },
    });
    expect(mutationError(ok, 'syncMirror')).toBeNull();
    expect(ok.data?.syncMirror?.repository).toEqual({ nameWithOwner: 'root/copy' });
    expect(await t.db.job.count({ where: { kind: 'repo.mirror-sync', status: 'PENDING' } })).toBe(1);
    await t.app.jobs.drain();
    expect(await t.db.job.count({ where: { kind: 'repo.mirror-sync', status: 'DONE' } })).toBe(1);
    const refused = await gql<{ syncMirror: unknown }>(t, sync, {
      headers: basic('root'),
      variables: { owner: 'root', name: 'src' },
    });
    expect(refused.data?.syncMirror).toBeNull();
    expect(mutationError(refused, 'syncMirror')?.message).toBe('Repository is not a mirror');
  });

  it('wiki: true copies the source wiki (`<source>.wiki.git`) next to the repository', async () => {
    const git = new GitClient();
    try {
      const work = git.dir('wiki');
      await git.ok(['init', '-q', '-b', 'master', work]);
      await git.commit(work, 'Home.md', '# Home\n');
      const wikiDir = repoPath(t.config.repositoriesDir, 'root', 'src.wiki');
      await git.ok(['clone', '-q', '--bare', work, wikiDir]);
      const res = await gql<{ migrateRepository: { repository: unknown } | null }>(t, MIGRATE, {
        headers: basic('root'),
        variables: { input: { cloneAddress: source, name: 'withwiki', wiki: true } },
      });
      expect(mutationError(res, 'migrateRepository')).toBeNull();
      expect(res.data?.migrateRepository?.repository).toMatchObject({ nameWithOwner: 'root/withwiki' });
      const copied = await readBranchAndTagRefs(repoPath(t.config.repositoriesDir, 'root', 'withwiki.wiki'));
      expect(copied).toEqual(await readBranchAndTagRefs(wikiDir));
      expect(Object.keys(copied)).toEqual(['refs/heads/master']);
    } finally {
      git.dispose();
    }
  });
});
