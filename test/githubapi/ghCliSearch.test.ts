// gh against the forge (see ghCli.test.ts): `gh search repos|issues|prs` on /api/v3/search, GitHub's query syntax
// through the same read policies as every other search (a private repository's issues are found by its readers only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic } from '../helpers/app.ts';
import { CLIENT_PROVIDERS } from '../helpers/db.ts';
import { createRepo, createRepoLabel } from '../helpers/fixtures.ts';
import { GH, startGhHarness, type GhHarness } from '../helpers/ghHarness.ts';

interface FoundIssue {
  number: number;
  title: string;
  state: string;
  isPullRequest: boolean;
  repository: { nameWithOwner: string };
  labels: { name: string }[];
  author: { login: string };
}

describe.skipIf(!GH).each(CLIENT_PROVIDERS)('gh search (%s)', (provider) => {
  let h: GhHarness;
  let carolToken: string;

  beforeAll(async () => {
    h = await startGhHarness(provider);
    const { t } = h;
    const alice = await t.db.user.findUniqueOrThrow({ where: { lowerName: 'alice' } });
    await t.createUser('carol');
    carolToken = await t.createToken('carol', ['all']);
    await createRepo(t, alice, 'widget', { autoInit: true, description: 'a gadget library' });
    await createRepo(t, alice, 'hidden-widget', { autoInit: true, private: true });
    await createRepoLabel(t, { ownerName: 'alice', name: 'demo' }, { name: 'bug', color: '#ff0000' });
    const post = (repo: string, body: object) =>
      t.request('POST', `/api/v1/repos/alice/${repo}/issues`, { headers: basic('alice'), body }).then((r) => {
        expect(r.statusCode, r.body).toBe(201);
      });
    await post('demo', { title: 'Crash on start', body: 'it crashes', labels: [] });
    await post('demo', { title: 'Slow start', body: 'it is slow' });
    await post('hidden-widget', { title: 'Secret crash' });
    const bug = await h.v1('/repos/alice/demo/labels');
    await t.request('POST', '/api/v1/repos/alice/demo/issues/1/labels', { headers: basic('alice'), body: { labels: [bug[0]?.id] } });
    await t.request('PATCH', '/api/v1/repos/alice/demo/issues/2', { headers: basic('alice'), body: { state: 'closed' } });
    await h.branchWithFile('fix-crash');
    await h.ghPull('fix-crash', 'Fix the crash');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('search repos: by name and description, with qualifiers, --json and --sort', async () => {
    expect(await h.gh('search', 'repos', 'widget')).toMatch(
      /^alice\/hidden-widget\t.*\tprivate\t.*\nalice\/widget\ta gadget library\tpublic\t/,
    );
    expect(await h.ghAs(carolToken, h.home, 'search', 'repos', 'widget')).not.toContain('hidden-widget');
    expect((await h.gh('search', 'repos', 'gadget')).trim().split('\t')[0]).toBe('alice/widget');
    expect(await h.gh('search', 'repos', 'widget', '--visibility', 'public')).not.toContain('hidden-widget');
    const json = JSON.parse(await h.gh('search', 'repos', '--owner', 'alice', '--json', 'fullName,isPrivate,owner,defaultBranch')) as {
      fullName: string;
      isPrivate: boolean;
      owner: { login: string };
      defaultBranch: string;
    }[];
    expect(json.map((r) => r.fullName).sort()).toEqual(['alice/demo', 'alice/hidden-widget', 'alice/widget']);
    expect(json.every((r) => r.owner.login === 'alice' && r.defaultBranch === 'main')).toBe(true);
    expect(await h.gh('search', 'repos', 'widget', '--sort', 'updated', '--order', 'asc')).toMatch(/^alice\/widget\t/);
  });

  it('search issues and prs: state, label, author, repo, --include-prs, --json', async () => {
    const found = (out: string) => JSON.parse(out) as FoundIssue[];
    const fields = ['--json', 'number,title,state,isPullRequest,repository,labels,author'];
    const crash = found(await h.gh('search', 'issues', 'crash', ...fields));
    expect(crash.map((i) => [i.repository.nameWithOwner, i.number, i.title]).sort()).toEqual([
      ['alice/demo', 1, 'Crash on start'],
      ['alice/hidden-widget', 1, 'Secret crash'],
    ]);
    expect(found(await h.ghAs(carolToken, h.home, 'search', 'issues', 'crash', ...fields)).map((i) => i.title)).toEqual(['Crash on start']);
    expect(found(await h.gh('search', 'issues', 'start', '--state', 'closed', ...fields)).map((i) => i.title)).toEqual(['Slow start']);
    expect(found(await h.gh('search', 'issues', '--label', 'bug', ...fields))).toEqual([
      expect.objectContaining({ title: 'Crash on start', state: 'open', labels: [expect.objectContaining({ name: 'bug' })] }),
    ]);
    const prs = found(await h.gh('search', 'prs', 'crash', '--author', 'alice', ...fields));
    expect(prs).toEqual([
      expect.objectContaining({ title: 'Fix the crash', isPullRequest: true, author: expect.objectContaining({ login: 'alice' }) }),
    ]);
    const all = found(await h.gh('search', 'issues', 'crash', '--include-prs', '--repo', 'alice/demo', ...fields));
    expect(all.map((i) => [i.title, i.isPullRequest]).sort()).toEqual([
      ['Crash on start', false],
      ['Fix the crash', true],
    ]);
    expect(await h.gh('search', 'issues', 'crash', '--repo', 'alice/demo')).toMatch(/^alice\/demo\t1\topen\tCrash on start\tbug\t/m);
  });

  it('a qualifier or sort this server does not have is GitHub’s 422, which gh prints', async () => {
    await expect(h.gh('search', 'issues', 'crash', '--reactions', '>5')).rejects.toThrow(
      /Invalid search query .*\n.*"reactions:" is not supported/,
    );
    await expect(h.gh('search', 'issues', 'crash', '--sort', 'reactions')).rejects.toThrow(
      /sort must be one of created, updated, comments/,
    );
    const res = await h.t.request('GET', '/api/v3/search/issues', { headers: { authorization: `token ${h.token}` } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: 'Validation Failed', errors: [{ resource: 'Search', field: 'q', code: 'missing' }] });
  });

  it('pages with a Link header gh follows', async () => {
    const res = await h.t.request('GET', '/api/v3/search/repositories?q=user:alice&per_page=1&page=2', {
      headers: { authorization: `token ${h.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total_count: 3, incomplete_results: false, items: [{ full_name: 'alice/hidden-widget' }] });
    expect(res.headers.link).toContain(`<https://${h.host}/api/v3/search/repositories?page=3&per_page=1&q=user%3Aalice>; rel="next"`);
    expect((await h.gh('search', 'repos', '--owner', 'alice', '--limit', '3')).trim().split('\n')).toHaveLength(3);
  });
});
