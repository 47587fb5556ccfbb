import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, NotFoundError } from '../../src/errors.ts';
import { createMerge, type MergeInput, type MergeStyle } from '../../src/git/createMerge.ts';
import { fetchIntoRef } from '../../src/git/fetchIntoRef.ts';
import type { GitIdentity } from '../../src/git/identity.ts';
import { checkMergeable } from '../../src/git/mergeTree.ts';
import { readRefs } from '../../src/git/readRefs.ts';
import { deleteRef, setRef, updateRefCAS } from '../../src/git/updateRef.ts';
import { ALICE, BOB, RepoFixture } from './fixture.ts';

const MERGER: GitIdentity = { name: 'Merger Person', email: 'merger@example.com', when: new Date('2024-05-06T07:08:09Z'), tz: '+0200' };
const POSTER: GitIdentity = { name: 'Alice', email: 'alice@example.com', when: new Date('2024-05-06T07:08:09Z') };
const ZOE = { name: 'Zoë Ünicode', email: 'zoe@example.com' };
const lines = (n: number, change: Record<number, string> = {}) =>
  Array.from({ length: n }, (_, i) => `${change[i + 1] ?? `line ${i + 1}`}\n`).join('');

describe('merge: mergeability, merge styles, compare-and-swap refs, forks', () => {
  let f: RepoFixture;
  let init: string;
  let mainTip: string;
  let m1: string;
  let feature: string[];
  let ahead: string[];
  let clash: string;
  let picked: string[];
  let orphan: string;

  const input = (style: MergeStyle, head: string, message = `Merge ${style}`): MergeInput => ({
    style,
    base: mainTip,
    head,
    author: MERGER,
    committer: MERGER,
    message,
  });

  beforeAll(async () => {
    f = await RepoFixture.create();
    init = await f.commit({ 'a.txt': lines(10), 'b.txt': 'b\n', 'conflict me.txt': 'base\n' }, 'init');
    await f.checkout('feature', 'main');
    feature = [
      await f.commit({ 'a.txt': lines(10, { 2: 'feature two' }) }, 'feature: one'),
      await f.commit({ 'new dir/new file.txt': 'new\n' }, 'feature: two', ZOE, { tz: '+0530' }),
      await f.commit({ 'a.txt': lines(10, { 2: 'feature two', 9: 'feature nine' }) }, 'feature: three\n\nbody line'),
    ];
    await f.checkout('main');
    m1 = await f.commit({ 'b.txt': 'b changed on main\n' }, 'main: b', BOB);
    mainTip = await f.commit({ 'conflict me.txt': 'ours\n' }, 'main: conflict file', BOB);
    await f.checkout('ahead', 'main');
    ahead = [await f.commit({ 'c.txt': 'c\n' }, 'ahead: one'), await f.commit({ 'c.txt': 'c\nc\n' }, 'ahead: two')];
    await f.checkout('clash', init);
    clash = await f.commit({ 'conflict me.txt': 'theirs\n', 'a.txt': lines(10, { 5: 'clash five' }) }, 'clash');
    await f.checkout('picked', init);
    await f.git(['cherry-pick', m1], { env: { GIT_COMMITTER_NAME: ALICE.name, GIT_COMMITTER_EMAIL: ALICE.email } });
    await f.git(['push', '-q', f.bare, 'HEAD:refs/heads/picked']);
    picked = [await f.rev('HEAD'), await f.commit({ 'd.txt': 'd\n' }, 'picked: own work')];
    await f.git(['checkout', '-q', '--orphan', 'orphan']);
    await f.git(['rm', '-q', '-rf', '.']);
    orphan = await f.commit({ 'o.txt': 'o\n' }, 'orphan');
  });

  beforeEach(async () => {
    await setRef(f.bare, 'refs/heads/main', mainTip);
  });

  afterAll(async () => {
    await f.bareGit(['fsck', '--strict', '--no-dangling', '--no-progress']);
    f.cleanup();
  });

  async function merged(style: MergeStyle, head: string): Promise<string> {
    const r = await createMerge(f.bare, input(style, head));
    if (r.status !== 'merged') throw new Error(`expected a merge, got ${JSON.stringify(r)}`);
    return r.sha;
  }

  it('checks mergeability with merge-tree: the merged tree, or the conflicted files', async () => {
    const clean = await checkMergeable(f.bare, mainTip, feature[2] ?? '');
    expect(clean.status).toBe('clean');
    if (clean.status === 'clean') expect(clean.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(await checkMergeable(f.bare, 'main', 'clash')).toEqual({ status: 'conflict', files: ['conflict me.txt'] });
    expect(await checkMergeable(f.bare, 'main', orphan)).toEqual({ status: 'unrelated-histories' });
    await expect(checkMergeable(f.bare, 'main', 'f'.repeat(40))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('merge: a merge commit with parents base and head, by the given author and committer', async () => {
    const sha = await merged('merge', 'feature');
    const [top] = await f.log(sha);
    expect(top).toBe(`${sha} ${mainTip} ${feature[2]} Merger Person Merger Person Merge merge`);
    const check = await checkMergeable(f.bare, mainTip, 'feature');
    expect(check.status === 'clean' && check.tree).toBe((await f.bareGit(['rev-parse', `${sha}^{tree}`])).trim());
    expect((await f.bareGit(['log', '-1', '--format=%aI|%ae|%cI|%B', sha])).trim()).toBe(
      '2024-05-06T09:08:09+02:00|merger@example.com|2024-05-06T09:08:09+02:00|Merge merge',
    );
    expect(await updateRefCAS(f.bare, 'refs/heads/main', sha, mainTip)).toEqual({ status: 'updated' });
    expect((await f.bareGit(['rev-parse', 'refs/heads/main'])).trim()).toBe(sha);
  });

  it('merge: still a merge commit (no fast-forward) when base is an ancestor of head', async () => {
    const sha = await merged('merge', ahead[1] ?? '');
    expect((await f.log(sha))[0]).toBe(`${sha} ${mainTip} ${ahead[1]} Merger Person Merger Person Merge merge`);
  });

  it('squash: one commit on top of base with the merged tree, authored by the poster and committed by the merger', async () => {
    const r = await createMerge(f.bare, { ...input('squash', 'feature', 'Squashed PR (#1)\n\n* feature: one'), author: POSTER });
    expect(r.status).toBe('merged');
    const sha = r.status === 'merged' ? r.sha : '';
    expect(await f.log(`${mainTip}..${sha}`)).toEqual([`${sha} ${mainTip} Alice Merger Person Squashed PR (#1)`]);
    expect(await f.bareGit(['show', `${sha}:a.txt`])).toBe(lines(10, { 2: 'feature two', 9: 'feature nine' }));
    expect(await f.bareGit(['show', `${sha}:b.txt`])).toBe('b changed on main\n');
    expect(await f.bareGit(['show', `${sha}:new dir/new file.txt`])).toBe('new\n');
    expect(r.status === 'merged' && r.mergeBase).toBe(init);
  });

  it('rebase: replays each head commit onto base, keeping authors, dates and messages; the committer is the merger', async () => {
    const sha = await merged('rebase', 'feature');
    const log = await f.log(`${mainTip}..${sha}`, '%P|%an|%ae|%aI|%cn|%cI|%s');
    expect(log).toHaveLength(3);
    const originals = await f.log(`${init}..feature`, '%an|%ae|%aI|%s');
    expect(originals.map((o) => o.split('|')[0])).toEqual(['Alice', 'Zoë Ünicode', 'Alice']);
    expect(originals[1]).toMatch(/\+05:30\|/);
    expect(log.map((l) => l.split('|').slice(1).join('|'))).toEqual(
      originals.map((o) => {
        const [an, ae, ad, subject] = o.split('|');
        return `${an}|${ae}|${ad}|Merger Person|2024-05-06T09:08:09+02:00|${subject}`;
      }),
    );
    expect((await f.log(sha, '%P'))[2]).toBe(mainTip);
    expect((await f.bareGit(['log', '-1', '--format=%B', sha])).trim()).toBe('feature: three\n\nbody line');
    for (const [rebased, original] of [
      [`${sha}~1`, feature[1]],
      [`${sha}~2`, feature[0]],
    ]) {
      const authorLine = async (rev: string) =>
        (await f.bareGit(['cat-file', 'commit', rev])).split('\n').find((l) => l.startsWith('author '));
      expect(await authorLine(rebased ?? '')).toBe(await authorLine(original ?? ''));
    }
  });

  it('rebase: gives the same trees as git rebase in a work tree', async () => {
    const sha = await merged('rebase', 'feature');
    await f.checkout('feature-rebased', 'feature');
    await f.git(['rebase', '-q', mainTip], { env: { GIT_COMMITTER_NAME: 'X', GIT_COMMITTER_EMAIL: 'x@example.com' } });
    const trees = async (rev: string) => (await f.git(['log', '--format=%T %s', `${mainTip}..${rev}`])).trim();
    await f.git(['fetch', '-q', f.bare, sha]);
    expect(await trees(sha)).toBe(await trees('feature-rebased'));
    await f.checkout('main');
  });

  it('rebase: keeps a legacy-encoded author line, encoding header and message bytes, and drops the signature', async () => {
    const tree = (await f.bareGit(['rev-parse', `${feature[0]}^{tree}`])).trim();
    const latin1 = (s: string) => Buffer.from(s, 'latin1');
    const raw = Buffer.concat([
      Buffer.from(`tree ${tree}\nparent ${init}\n`),
      latin1('author J\xf6rg Jr. <jorg@example.com> 1700000000 -0330\n'),
      Buffer.from('committer Someone <someone@example.com> 1700000000 +0000\nencoding ISO-8859-1\n'),
      Buffer.from('gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n'),
      latin1('\nSch\xf6ne \xc4nderung\n'),
    ]);
    const signed = (await f.git(['hash-object', '-t', 'commit', '-w', '--stdin'], { gitDir: f.bare, input: raw })).trim();
    const sha = await merged('rebase', signed);
    const text = (await f.bareGit(['cat-file', 'commit', sha])).split('\n');
    expect(text[1]).toBe(`parent ${mainTip}`);
    expect(text[3]).toBe('committer Merger Person <merger@example.com> 1714979289 +0200');
    expect(text[4]).toBe('encoding ISO-8859-1');
    expect(text.some((l) => l.startsWith('gpgsig'))).toBe(false);
    // git log re-encodes from ISO-8859-1: the Latin-1 bytes, the trailing dot and the zone survived the rewrite.
    expect((await f.bareGit(['log', '-1', '--format=%an|%ad|%s', '--date=raw', sha])).trim()).toBe(
      'Jörg Jr.|1700000000 -0330|Schöne Änderung',
    );
  });

  it('rebase: follows a rename in head while base edits the renamed file, like git rebase', async () => {
    const g = await RepoFixture.create();
    try {
      await g.commit({ 'r.txt': lines(12), 'other.txt': 'o\n' }, 'init');
      await g.checkout('topic', 'main');
      await g.commit({ 'moved/r.txt': lines(12, { 1: 'topic one' }) }, 'topic: move and edit', ALICE, {
        renames: { 'r.txt': 'moved/r.txt' },
      });
      await g.commit({ 'moved/r.txt': lines(12, { 1: 'topic one', 4: 'topic four' }), 'other.txt': null }, 'topic: edit, delete other');
      await g.checkout('main');
      const base = await g.commit({ 'r.txt': lines(12, { 12: 'main twelve' }) }, 'main: edit the old path', BOB);
      const r = await createMerge(g.bare, { ...input('rebase', 'topic'), base });
      const sha = r.status === 'merged' ? r.sha : '';
      expect(await g.bareGit(['show', `${sha}:moved/r.txt`])).toBe(lines(12, { 1: 'topic one', 4: 'topic four', 12: 'main twelve' }));
      await g.checkout('topic');
      await g.git(['rebase', '-q', 'main'], { env: { GIT_COMMITTER_NAME: 'X', GIT_COMMITTER_EMAIL: 'x@example.com' } });
      await g.git(['fetch', '-q', g.bare, sha]);
      const trees = async (rev: string) => (await g.git(['log', '--format=%T %an %s', `${base}..${rev}`])).trim();
      expect(await trees(sha)).toBe(await trees('topic'));
    } finally {
      g.cleanup();
    }
  });

  it('rebase: a head already on top of base fast-forwards without rewriting', async () => {
    expect(await merged('rebase', 'ahead')).toBe(ahead[1]);
  });

  it('rebase: drops commits base already has (cherry-picked) and replays the rest', async () => {
    const sha = await merged('rebase', 'picked');
    expect(await f.log(`${mainTip}..${sha}`, '%P %s')).toEqual([`${mainTip} picked: own work`]);
    expect(picked).toHaveLength(2);
  });

  it('rebase: a conflicting replay names the commit and the files', async () => {
    expect(await createMerge(f.bare, input('rebase', 'clash'))).toEqual({ status: 'conflict', files: ['conflict me.txt'], commit: clash });
    expect(await createMerge(f.bare, input('rebase-merge', 'clash'))).toEqual({
      status: 'conflict',
      files: ['conflict me.txt'],
      commit: clash,
    });
  });

  it('rebase-merge: a merge commit of base and the rebased head', async () => {
    const sha = await merged('rebase-merge', 'feature');
    const [top = ''] = await f.log(sha, '%P|%an|%s');
    const [p1, p2 = ''] = top.split('|')[0]?.split(' ') ?? [];
    expect(p1).toBe(mainTip);
    expect(top.split('|').slice(1)).toEqual(['Merger Person', 'Merge rebase-merge']);
    expect(await f.log(`${mainTip}..${p2}`, '%an %s')).toEqual(['Alice feature: three', 'Zoë Ünicode feature: two', 'Alice feature: one']);
    expect((await f.log(p2, '%P'))[2]).toBe(mainTip);
  });

  it('fast-forward-only: head itself when base is its ancestor, refused otherwise', async () => {
    expect(await createMerge(f.bare, input('fast-forward-only', 'ahead'))).toEqual({ status: 'merged', sha: ahead[1], mergeBase: mainTip });
    expect(await createMerge(f.bare, input('fast-forward-only', 'feature'))).toEqual({ status: 'not-fast-forward' });
  });

  it('merge and squash conflicts are results with the conflicted files', async () => {
    for (const style of ['merge', 'squash'] as const) {
      expect(await createMerge(f.bare, input(style, 'clash'))).toEqual({ status: 'conflict', files: ['conflict me.txt'], commit: null });
    }
  });

  it('refuses already merged heads and unrelated histories', async () => {
    for (const style of ['merge', 'squash', 'rebase', 'rebase-merge', 'fast-forward-only'] as const) {
      expect(await createMerge(f.bare, input(style, init))).toEqual({ status: 'already-merged' });
      expect(await createMerge(f.bare, input(style, orphan))).toEqual({ status: 'unrelated-histories' });
    }
  });

  it('rejects bad identities and revisions as domain errors', async () => {
    await expect(createMerge(f.bare, { ...input('merge', 'feature'), author: { ...MERGER, name: 'Evil <x@y>' } })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await expect(createMerge(f.bare, { ...input('merge', 'feature'), committer: { ...MERGER, tz: 'CET' } })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await expect(createMerge(f.bare, input('merge', '--all'))).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(createMerge(f.bare, input('merge', 'a'.repeat(40)))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('updateRefCAS loses to a push that landed after the merge was computed', async () => {
    const sha = await merged('merge', 'feature');
    await f.checkout('main');
    await f.git(['reset', '-q', '--hard', mainTip]);
    const pushed = await f.commit({ 'pushed.txt': 'racing push\n' }, 'pushed meanwhile', BOB);
    expect(await updateRefCAS(f.bare, 'refs/heads/main', sha, mainTip)).toEqual({ status: 'stale', current: pushed });
    expect((await f.bareGit(['rev-parse', 'refs/heads/main'])).trim()).toBe(pushed);
    await f.git(['reset', '-q', '--hard', mainTip]);
  });

  it('updateRefCAS: create-only when expecting null, and exactly one of two racing updates wins', async () => {
    expect(await updateRefCAS(f.bare, 'refs/heads/main', feature[0] ?? '', null)).toEqual({ status: 'stale', current: mainTip });
    expect(await updateRefCAS(f.bare, 'refs/heads/fresh', feature[0] ?? '', null)).toEqual({ status: 'updated' });
    const results = await Promise.all([
      updateRefCAS(f.bare, 'refs/heads/fresh', feature[1] ?? '', feature[0] ?? ''),
      updateRefCAS(f.bare, 'refs/heads/fresh', feature[2] ?? '', feature[0] ?? ''),
    ]);
    expect(results.filter((r) => r.status === 'updated')).toHaveLength(1);
    const lost = results.find((r) => r.status === 'stale');
    const now = (await f.bareGit(['rev-parse', 'refs/heads/fresh'])).trim();
    expect(lost).toEqual({ status: 'stale', current: now });
    await expect(updateRefCAS(f.bare, 'refs/heads/fresh', 'b'.repeat(40), now)).rejects.toBeInstanceOf(NotFoundError);
    await expect(updateRefCAS(f.bare, 'heads/fresh', now, null)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await readRefs(f.bare, ['refs/heads/fresh', 'refs/heads/main', 'refs/heads/nope', 'refs/heads'])).toEqual(
      new Map([
        ['refs/heads/fresh', now],
        ['refs/heads/main', mainTip],
      ]),
    );
    await deleteRef(f.bare, 'refs/heads/fresh');
    await deleteRef(f.bare, 'refs/heads/fresh');
    expect(await f.bareGit(['for-each-ref', 'refs/heads/fresh'])).toBe('');
  });

  it('fetchIntoRef copies a fork commit into refs/pull/N/head', async () => {
    const fork = path.join(f.root, 'fork.git');
    await f.git(['clone', '-q', '--bare', f.bare, fork], { cwd: f.root });
    await f.checkout('fork-work', 'feature');
    const forkTip = await f.commit({ 'fork.txt': 'only in the fork\n' }, 'fork: change', ALICE, { pushTo: fork });
    await expect(f.bareGit(['cat-file', '-e', forkTip])).rejects.toThrow();
    await fetchIntoRef(f.bare, fork, forkTip, 'refs/pull/1/head');
    expect((await f.bareGit(['rev-parse', 'refs/pull/1/head'])).trim()).toBe(forkTip);
    expect(await f.bareGit(['show', `${forkTip}:fork.txt`])).toBe('only in the fork\n');
    await fetchIntoRef(f.bare, fork, feature[2] ?? '', 'refs/pull/2/head');
    expect((await f.bareGit(['rev-parse', 'refs/pull/2/head'])).trim()).toBe(feature[2]);
    await expect(fetchIntoRef(f.bare, fork, 'c'.repeat(40), 'refs/pull/3/head')).rejects.toBeInstanceOf(NotFoundError);
    expect(await f.bareGit(['for-each-ref', '--format=%(refname)', 'refs/pull/'])).toBe('refs/pull/1/head\nrefs/pull/2/head\n');
    expect(await createMerge(f.bare, input('merge', 'refs/pull/1/head'))).toMatchObject({ status: 'merged' });
    await f.checkout('main');
  });
});

describe('merge styles on a sha256 repository', () => {
  let g: RepoFixture;
  let base: string;
  let head: string;

  beforeAll(async () => {
    g = await RepoFixture.create('sha256');
    await g.commit({ 'a.txt': lines(6) }, 'init');
    await g.checkout('topic', 'main');
    await g.commit({ 'a.txt': lines(6, { 1: 'topic one' }) }, 'topic: one');
    head = await g.commit({ 'b.txt': 'b\n' }, 'topic: two', ZOE);
    await g.checkout('main');
    base = await g.commit({ 'a.txt': lines(6, { 6: 'main six' }) }, 'main: six', BOB);
  });

  afterAll(async () => {
    await g.bareGit(['fsck', '--strict', '--no-dangling', '--no-progress']);
    g.cleanup();
  });

  it('merges, squashes, rebases and rebase-merges with 64-digit ids', async () => {
    for (const style of ['merge', 'squash', 'rebase', 'rebase-merge'] as const) {
      const r = await createMerge(g.bare, { style, base, head, author: POSTER, committer: MERGER, message: `sha256 ${style}` });
      expect(r.status).toBe('merged');
      const sha = r.status === 'merged' ? r.sha : '';
      expect(sha).toMatch(/^[0-9a-f]{64}$/);
      expect(await g.bareGit(['show', `${sha}:a.txt`])).toBe(lines(6, { 1: 'topic one', 6: 'main six' }));
      const count = (await g.log(`${base}..${sha}`, '%H')).length;
      expect(count).toBe({ merge: 3, squash: 1, rebase: 2, 'rebase-merge': 3 }[style]);
    }
    const rebased = await createMerge(g.bare, { style: 'rebase', base, head, author: POSTER, committer: MERGER, message: '' });
    const sha = rebased.status === 'merged' ? rebased.sha : '';
    expect(await g.log(`${base}..${sha}`, '%an %cn %s')).toEqual([
      'Zoë Ünicode Merger Person topic: two',
      'Alice Merger Person topic: one',
    ]);
    expect(await updateRefCAS(g.bare, 'refs/heads/main', sha, base)).toEqual({ status: 'updated' });
    expect(await updateRefCAS(g.bare, 'refs/heads/main', head, base)).toEqual({ status: 'stale', current: sha });
  });
});
