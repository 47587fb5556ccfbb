import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { gql, mutationError } from '../../helpers/graphql.ts';
import { restApi } from './restApi.ts';

/**
 * One way to move a ref (issue 30): every REST route and GraphQL mutation whose service moves a branch or a tag
 * goes through services/repo/moveRefs.ts, which asks the protection gate. The static half ties the list below to
 * the code: the transports' write routes and mutations that reach moveRefs (or createTagRef) through the
 * services are found from the import graph, and each must be listed here, as a door run against a protected
 * branch or with the reason it moves no branch. The other half runs every door as a write collaborator whose
 * push the rule disables, and checks that no branch moved. git push (smart HTTP and SSH) is gated by its pre-receive
 * hook (protection.test.ts, test/ssh/ssh.test.ts); eslint.config.js (REF_WRITERS) keeps git's ref writers inside moveRefs.ts.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const REF_MODULE = path.join(ROOT, 'src/services/repo/moveRefs.ts');

/** Doors that move a branch (run below), doors that move only tags (gated by tag protections: tagProtection.test.ts), and the rest. */
const DOORS: Record<string, 'branch' | 'tag' | { none: string }> = {
  'POST /repos/{owner}/{repo}/branches': 'branch',
  'DELETE /repos/{owner}/{repo}/branches/{branch}': 'branch',
  'PATCH /repos/{owner}/{repo}/branches/{branch}': 'branch',
  'PUT /repos/{owner}/{repo}/branches/{branch}': 'branch',
  'POST /repos/{owner}/{repo}/pulls/{index}/update': 'branch',
  'POST /repos/{owner}/{repo}/merge-upstream': 'branch',
  'POST /repos/{owner}/{repo}/forks': { none: 'creates a new repository; its route file also holds merge-upstream' },
  'POST /repos/{owner}/{repo}/contents': 'branch',
  'POST /repos/{owner}/{repo}/diffpatch': 'branch',
  'POST /repos/{owner}/{repo}/contents/{filepath}': 'branch',
  'PUT /repos/{owner}/{repo}/contents/{filepath}': 'branch',
  'DELETE /repos/{owner}/{repo}/contents/{filepath}': 'branch',
  'POST /repos/{owner}/{repo}/pulls/{index}/merge': 'branch',
  'PATCH /repos/{owner}/{repo}/pulls/{index}': { none: 'edits the pull request (title, base name, state); no ref moves' },
  'DELETE /repos/{owner}/{repo}/pulls/{index}/merge': { none: 'cancels a scheduled merge' },
  'POST /repos/{owner}/{repo}/tags': 'tag',
  'DELETE /repos/{owner}/{repo}/tags/{tag}': 'tag',
  'POST /repos/{owner}/{repo}/releases': 'tag',
  'PATCH /repos/{owner}/{repo}/releases/{id}': 'tag',
  'DELETE /repos/{owner}/{repo}/releases/{id}': { none: 'the release goes, its tag stays' },
  'DELETE /repos/{owner}/{repo}/releases/tags/{tag}': { none: 'the release goes, its tag stays' },
  'v3 DELETE /repos/:owner/:repo/git/refs/*': 'branch',
  'v3 POST /repos/:owner/:repo/releases': 'tag',
  'v3 PATCH /repos/:owner/:repo/releases/:id': 'tag',
  'mutation createRef': 'branch',
  'mutation updateRef': 'branch',
  'mutation deleteRef': 'branch',
  'mutation createCommitOnBranch': 'branch',
  'mutation mergePullRequest': 'branch',
  'mutation enablePullRequestAutoMerge': 'branch',
  'mutation disablePullRequestAutoMerge': { none: 'cancels a scheduled merge' },
  'mutation updatePullRequest': { none: 'edits the pull request; no ref moves' },
  'mutation createRelease': 'tag',
  'mutation updateRelease': 'tag',
  'mutation deleteRelease': { none: 'the release goes, its tag stays' },
  'mutation updateReleaseAsset': { none: 'release assets' },
  'mutation deleteReleaseAsset': { none: 'release assets' },
};

/** Relative imports of every source file (type-only ones included). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts') && !d.parentPath.includes(`${path.sep}generated`))
    .map((d) => path.join(d.parentPath, d.name));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(
      file,
      importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => path.resolve(path.dirname(file), i.fileName)),
    );
  }
  return graph;
}

/**
 * The write routes and mutations of the transport files that import a service reaching moveRefs: the services
 * that import moveRefs or createTagRef, and the services importing those, transitively.
 */
function doorsReachingMoveRefs(): string[] {
  const graph = importGraph();
  const movesRefs = /import\s*\{[^}]*\b(?:moveRefs|createTagRef)\b[^}]*\}\s*from\s*'[^']*moveRefs\.ts'/;
  const movers = new Set([...graph.keys()].filter((f) => f !== REF_MODULE && movesRefs.test(readFileSync(f, 'utf8'))));
  for (let grew = true; grew;) {
    grew = false;
    for (const [file, deps] of graph) {
      if (file.includes(`${path.sep}src${path.sep}services${path.sep}`) && !movers.has(file) && deps.some((d) => movers.has(d))) {
        movers.add(file);
        grew = true;
      }
    }
  }
  const doors: string[] = [];
  for (const [file, deps] of graph) {
    if (!/[/\\]src[/\\](rest|graphql|githubapi)[/\\]/.test(file) || !deps.some((d) => movers.has(d))) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:relayMutationField|mutationField)\(\s*'(\w+)'/g)) doors.push(`mutation ${m[1]}`);
    for (const m of text.matchAll(/method:\s*'(POST|PUT|PATCH|DELETE)',\s*path:\s*'([^']+)'/g)) doors.push(`${m[1]} ${m[2]}`);
    // GitHub's REST v3 (src/githubapi): Fastify's shorthand routes.
    for (const m of text.matchAll(/app\.(post|put|patch|delete)(?:<[^(]*>)?\(\s*'([^']+)'/g))
      doors.push(`v3 ${m[1]!.toUpperCase()} ${m[2]}`);
  }
  return doors.sort();
}

describe('the doors that move refs (static)', () => {
  it('every write route and mutation reaching moveRefs is listed, and nothing listed is gone', () => {
    const found = doorsReachingMoveRefs();
    expect(found.length).toBeGreaterThan(10);
    expect(
      found.filter((d) => !(d in DOORS)),
      'doors to add to DOORS (and run below)',
    ).toEqual([]);
    expect(
      Object.keys(DOORS).filter((d) => !found.includes(d)),
      'stale DOORS entries',
    ).toEqual([]);
  });

  it("git's ref-writing commands live only in the modules eslint.config.js restricts to moveRefs (and repository creation)", () => {
    const gitDir = path.join(ROOT, 'src/git');
    // A git subcommand that writes refs as the first element of an argument list (after `-c key=value` pairs),
    // or an isomorphic-git call that does.
    const writes =
      /\[\s*(?:'-c',\s*'[^']*',\s*)*'(?:update-ref|symbolic-ref|tag|fetch|clone|branch|pull|checkout|merge|commit|reset)'\s*,|\bgit\.(?:writeRef|branch|tag|annotatedTag|commit|merge|fetch|clone|deleteRef|deleteBranch|deleteTag|renameBranch|checkout|pull)\(/;
    const writers = readdirSync(gitDir)
      .filter((f) => f.endsWith('.ts') && writes.test(readFileSync(path.join(gitDir, f), 'utf8')))
      .map((f) => f.replace(/\.ts$/, ''));
    const config = readFileSync(path.join(ROOT, 'eslint.config.js'), 'utf8');
    const restricted = [...config.matchAll(/\{ module: '(\w+)'/g)].map((m) => m[1]);
    // resolveRef names `branch`/`tag` as ref kinds, not commands.
    expect(writers.filter((w) => w !== 'resolveRef').sort()).toEqual([...restricted].sort());
  });
});

describe.each(PROVIDERS)('every door refuses to move a protected branch for a writer whose push the rule disables (%s)', (provider) => {
  let t: TestApp;
  let repoId = '';
  let pullId = '';
  let relRef = '';
  const api = restApi(() => t);
  const b64 = (s: string) => Buffer.from(s).toString('base64');

  /** Every branch of own/doors and its head. */
  const heads = async (): Promise<Record<string, string>> => {
    const res = await api('GET', '/repos/own/doors/branches?limit=50', 'own');
    const list = res.json as unknown as { name: string; commit: { id: string } }[];
    return Object.fromEntries(list.map((b) => [b.name, b.commit.id]));
  };
  /** Runs a mutation as `wri`: the payload's type name when it succeeded, else the error's code and message. */
  const mutate = async (name: string, input: Record<string, unknown>) => {
    const type = `${name[0]!.toUpperCase()}${name.slice(1)}`;
    const res = await gql<Record<string, { __typename: string } | null>>(
      t,
      `mutation($input: ${type}Input!) { ${name}(input: $input) { __typename } }`,
      {
        variables: { input },
        headers: basic('wri'),
      },
    );
    const error = mutationError(res, name);
    return error ? { code: error.code, message: error.message } : { __typename: res.data![name]!.__typename };
  };
  /** Runs a door and checks that no branch moved, appeared or went (but those in `moving`). */
  const door = async (run: () => Promise<void>, moving: string[] = []) => {
    const before = await heads();
    await run();
    await t.app.deps.notifier.drain();
    const after = await heads();
    for (const name of moving) {
      delete before[name];
      delete after[name];
    }
    expect(after).toEqual(before);
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('own');
    await t.createUser('wri');
    expect((await api('POST', '/user/repos', 'own', { name: 'doors', auto_init: true, default_branch: 'main' })).status).toBe(201);
    expect((await api('PUT', '/repos/own/doors/collaborators/wri', 'own', { permission: 'write' })).status).toBe(204);
    for (const name of ['rel', 'relhead', 'feat', 'locked/one']) {
      expect((await api('POST', '/repos/own/doors/branches', 'own', { new_branch_name: name, old_branch_name: 'main' })).status).toBe(201);
    }
    for (const branch of ['relhead', 'feat']) {
      const res = await api('POST', `/repos/own/doors/contents/${branch}.txt`, 'own', { content: b64(`${branch}\n`), branch });
      expect(res.status).toBe(201);
    }
    // Push disabled (the default) on `rel`, `relhead` and `locked/*`; on `rel` only whitelisted users (none) merge.
    for (const rule of [
      { rule_name: 'rel', enable_merge_whitelist: true, merge_whitelist_usernames: [] },
      { rule_name: 'relhead' },
      { rule_name: 'locked/*' },
    ]) {
      expect((await api('POST', '/repos/own/doors/branch_protections', 'own', rule)).status).toBe(201);
    }
    for (const [head, base] of [
      ['feat', 'rel'],
      ['relhead', 'main'],
    ]) {
      expect((await api('POST', '/repos/own/doors/pulls', 'own', { head, base, title: `${head} into ${base}` })).status).toBe(201);
    }
    const ids = await gql<{ repository: { id: string; p1: { id: string }; rel: { id: string } } }>(
      t,
      '{ repository(owner: "own", name: "doors") { id p1: pullRequest(number: 1) { id } rel: ref(qualifiedName: "rel") { id } } }',
      { headers: basic('own') },
    );
    repoId = ids.data!.repository.id;
    pullId = ids.data!.repository.p1.id;
    relRef = ids.data!.repository.rel.id;
  });
  afterAll(() => t?.close());

  const refusedRest = (status: number, message?: string) => (res: { status: number; json: Record<string, unknown> }) => {
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    if (message) expect(res.json.message).toBe(message);
  };
  const forbidden = refusedRest(403);

  /** The branch doors, each run as `wri` against `rel` (or a name `locked/*` protects). */
  const BRANCH_DOORS: Record<string, () => Promise<void>> = {
    'POST /repos/{owner}/{repo}/branches': async () => {
      forbidden(await api('POST', '/repos/own/doors/branches', 'wri', { new_branch_name: 'locked/new', old_branch_name: 'main' }));
    },
    'DELETE /repos/{owner}/{repo}/branches/{branch}': async () => {
      refusedRest(403, 'branch protected')(await api('DELETE', '/repos/own/doors/branches/rel', 'wri'));
    },
    'PATCH /repos/{owner}/{repo}/branches/{branch}': async () => {
      const res = await api('PATCH', '/repos/own/doors/branches/rel', 'wri', { name: 'rel2' });
      refusedRest(403, 'User must be a repo or site admin to rename default or protected branches.')(res);
    },
    'POST /repos/{owner}/{repo}/contents': async () => {
      const files = [{ operation: 'create', path: 'multi.txt', content: b64('x\n') }];
      forbidden(await api('POST', '/repos/own/doors/contents', 'wri', { branch: 'rel', files }));
      forbidden(await api('POST', '/repos/own/doors/contents', 'wri', { branch: 'main', new_branch: 'locked/files', files }));
    },
    'POST /repos/{owner}/{repo}/diffpatch': async () => {
      const content = ['--- /dev/null', '+++ b/patched.txt', '@@ -0,0 +1 @@', '+x', ''].join('\n');
      forbidden(await api('POST', '/repos/own/doors/diffpatch', 'wri', { branch: 'rel', content }));
    },
    'POST /repos/{owner}/{repo}/contents/{filepath}': async () => {
      forbidden(await api('POST', '/repos/own/doors/contents/new.txt', 'wri', { branch: 'rel', content: b64('x\n') }));
    },
    'PUT /repos/{owner}/{repo}/contents/{filepath}': async () => {
      const sha = ((await api('GET', '/repos/own/doors/contents/README.md?ref=rel', 'wri')).json as { sha: string }).sha;
      forbidden(await api('PUT', '/repos/own/doors/contents/README.md', 'wri', { branch: 'rel', sha, content: b64('changed\n') }));
    },
    'DELETE /repos/{owner}/{repo}/contents/{filepath}': async () => {
      const sha = ((await api('GET', '/repos/own/doors/contents/README.md?ref=rel', 'wri')).json as { sha: string }).sha;
      forbidden(await api('DELETE', '/repos/own/doors/contents/README.md', 'wri', { branch: 'rel', sha }));
    },
    'PUT /repos/{owner}/{repo}/branches/{branch}': async () => {
      const feat = (await heads()).feat;
      for (const force of [false, true])
        forbidden(await api('PUT', '/repos/own/doors/branches/rel', 'wri', { new_commit_id: feat, force }));
    },
    'POST /repos/{owner}/{repo}/pulls/{index}/update': async () => {
      // Pull request 2's head, relhead, is protected (push disabled): the writer may not update it.
      forbidden(await api('POST', '/repos/own/doors/pulls/2/update', 'wri'));
    },
    'POST /repos/{owner}/{repo}/merge-upstream': async () => {
      // own/doors is no fork (400, nothing moves); a protected fork branch refusing the sync: mergeUpstream.test.ts.
      refusedRest(400, 'repo is not a fork')(await api('POST', '/repos/own/doors/merge-upstream', 'wri', { branch: 'rel' }));
    },
    'POST /repos/{owner}/{repo}/pulls/{index}/merge': async () => {
      refusedRest(405, 'User not allowed to merge PR')(await api('POST', '/repos/own/doors/pulls/1/merge', 'wri', { Do: 'merge' }));
    },
    'v3 DELETE /repos/:owner/:repo/git/refs/*': async () => {
      const res = await t.request('DELETE', '/api/v3/repos/own/doors/git/refs/heads/rel', { headers: basic('wri') });
      expect(res.statusCode, res.body).toBe(403);
    },
    'mutation createRef': async () => {
      const oid = (await heads()).main;
      expect(await mutate('createRef', { repositoryId: repoId, name: 'refs/heads/locked/ref', oid })).toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    },
    'mutation updateRef': async () => {
      const oid = (await heads()).feat;
      for (const force of [false, true]) {
        expect(await mutate('updateRef', { refId: relRef, oid, force })).toMatchObject({
          code: 'PERMISSION_DENIED',
        });
      }
    },
    'mutation deleteRef': async () => {
      expect(await mutate('deleteRef', { refId: relRef })).toMatchObject({
        code: 'PERMISSION_DENIED',
      });
    },
    'mutation createCommitOnBranch': async () => {
      const expectedHeadOid = (await heads()).rel;
      const input = {
        branch: { repositoryNameWithOwner: 'own/doors', branchName: 'rel' },
        message: { headline: 'graph commit' },
        fileChanges: { additions: [{ path: 'graph.txt', contents: b64('g\n') }] },
        expectedHeadOid,
      };
      expect(await mutate('createCommitOnBranch', input)).toMatchObject({ code: 'PERMISSION_DENIED' });
    },
    'mutation mergePullRequest': async () => {
      expect(await mutate('mergePullRequest', { pullRequestId: pullId })).toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: 'User not allowed to merge PR',
      });
    },
    'mutation enablePullRequestAutoMerge': async () => {
      expect(await mutate('enablePullRequestAutoMerge', { pullRequestId: pullId })).toMatchObject({
        code: 'PRECONDITION_FAILED',
        message: 'User not allowed to merge PR',
      });
    },
  };

  it('runs every branch door of DOORS as the writer: refused, and no branch moved', async () => {
    const listed = Object.entries(DOORS)
      .filter(([, kind]) => kind === 'branch')
      .map(([key]) => key);
    expect(Object.keys(BRANCH_DOORS).sort()).toEqual(listed.sort());
    const open: string[] = [];
    for (const [key, run] of Object.entries(BRANCH_DOORS)) {
      await door(run).catch((err: unknown) => open.push(`${key}: ${(err as Error).message.split('\n')[0]}`));
    }
    expect(open, 'doors that let the writer through or moved a branch').toEqual([]);
  });

  it('issue 30 finding 1: GraphQL updateRef (fast-forward or forced) and deleteRef do not move or delete the protected branch', async () => {
    const before = await heads();
    for (const force of [false, true]) {
      const moved = await mutate('updateRef', { refId: relRef, oid: before.feat, force });
      expect(moved).toMatchObject({ code: 'PERMISSION_DENIED', message: 'Not allowed to push to protected branch rel' });
    }
    expect(await mutate('deleteRef', { refId: relRef })).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'branch protected',
    });
    expect((await heads()).rel).toBe(before.rel);
  });

  it("issue 30 finding 2: a writer cannot rename a protected branch (403, Gitea's text), which stays protected", async () => {
    const res = await api('PATCH', '/repos/own/doors/branches/rel', 'wri', { name: 'rel2' });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe('User must be a repo or site admin to rename default or protected branches.');
    expect((await api('GET', '/repos/own/doors/branches/rel2', 'wri')).status).toBe(404);
    expect((await api('GET', '/repos/own/doors/branches/rel', 'wri')).json).toMatchObject({ protected: true, user_can_push: false });
  });

  it('a merge the writer may make (into an unprotected base) leaves a protected head branch in place', async () => {
    const res = await api('POST', '/repos/own/doors/pulls/2/merge', 'wri', { Do: 'merge', delete_branch_after_merge: true });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    await door(async () => undefined);
    expect(Object.keys(await heads())).toContain('relhead');
  });

  it('tag doors move tags only (Forgegraph has no protected tags) and touch no branch', async () => {
    await door(async () => {
      expect((await api('POST', '/repos/own/doors/tags', 'wri', { tag_name: 'v-doors', target: 'rel' })).status).toBe(201);
      expect((await api('DELETE', '/repos/own/doors/tags/v-doors', 'wri')).status).toBe(204);
      const rel = await api('POST', '/repos/own/doors/releases', 'wri', { tag_name: 'v-rel', target_commitish: 'rel', draft: true });
      expect(rel.status).toBe(201);
      expect((await api('PATCH', `/repos/own/doors/releases/${String(rel.json.id)}`, 'wri', { draft: false })).status).toBe(200);
      const created = await mutate('createRelease', { repositoryOwner: 'own', repositoryName: 'doors', tagName: 'v-graph', target: 'rel' });
      expect(created.__typename).toBe('CreateReleasePayload');
      const v3 = await t.request('POST', '/api/v3/repos/own/doors/releases', {
        headers: basic('wri'),
        body: { tag_name: 'v-v3', target_commitish: 'rel' },
      });
      expect(v3.statusCode, v3.body).toBe(201);
      const draft = await t.request('POST', '/api/v3/repos/own/doors/releases', {
        headers: basic('wri'),
        body: { tag_name: 'v-v3-draft', target_commitish: 'rel', draft: true },
      });
      expect(draft.statusCode, draft.body).toBe(201);
      const published = await t.request('PATCH', `/api/v3/repos/own/doors/releases/${String((draft.json() as { id: number }).id)}`, {
        headers: basic('wri'),
        body: { draft: false },
      });
      expect(published.statusCode, published.body).toBe(200);
    });
    const tags = (await api('GET', '/repos/own/doors/tags', 'own')).json as unknown as { name: string }[];
    expect(tags.map((x) => x.name).sort()).toEqual(['v-graph', 'v-rel', 'v-v3', 'v-v3-draft']);
  });

  it('an admin renames a branch a rule names, and the rule follows; a pattern-protected branch is renamed by nobody', async () => {
    refusedRest(
      403,
      'Branch is protected by glob-based protection rules.',
    )(await api('PATCH', '/repos/own/doors/branches/locked%2Fone', 'own', { name: 'free' }));
    const sha = (await heads()).rel;
    expect((await api('PATCH', '/repos/own/doors/branches/rel', 'own', { name: 'rel2' })).status).toBe(204);
    await t.app.deps.notifier.drain();
    const moved = await api('GET', '/repos/own/doors/branches/rel2', 'wri');
    expect(moved.json).toMatchObject({ commit: { id: sha }, protected: true, user_can_push: false });
    expect((await api('GET', '/repos/own/doors/branches/rel', 'own')).status).toBe(404);
    const rules = (await api('GET', '/repos/own/doors/branch_protections', 'own')).json as unknown as { rule_name: string }[];
    expect(rules.map((r) => r.rule_name).sort()).toEqual(['locked/*', 'rel2', 'relhead']);
    // The default branch too is renamed by admins only.
    refusedRest(
      403,
      'User must be a repo or site admin to rename default or protected branches.',
    )(await api('PATCH', '/repos/own/doors/branches/main', 'wri', { name: 'trunk' }));
  });
});
