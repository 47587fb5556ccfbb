import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError, NotFoundError } from '../../src/errors.ts';
import { commitsExcluding, compareCommits, countDivergence, diffStats, isAncestor, mergeBase } from '../../src/git/compare.ts';
import { diffStream, patchStream } from '../../src/git/patch.ts';
import { ALICE, BOB, RepoFixture } from './fixture.ts';

const NL_NAME = 'nl\nname.txt';
const UNICODE_NAME = 'ünï cödé/файл 名前.txt';
const TAB_NAME = 'tab\there.txt';

describe('compare: merge base, commits, diff stats, diff and patch streams', () => {
  let f: RepoFixture;
  let init: string;
  let edit: string;
  let add: string;
  let mainTip: string;
  let mergedTip: string;
  let orphan: string;

  beforeAll(async () => {
    f = await RepoFixture.create();
    init = await f.commit(
      {
        'f one.txt': 'a\nb\nc\n',
        'keep.txt': 'x\n',
        'big.txt': Array.from({ length: 50 }, (_, i) => `line ${i + 1}\n`).join(''),
        'bin.dat': Buffer.from([0, 1, 2]),
        'same.sh': 'echo hi\n',
      },
      'init',
    );
    await f.checkout('feature', 'main');
    edit = await f.commit(
      {
        'f one.txt': 'a\nB\nc\nd\n',
        'keep.txt': null,
        'bin.dat': Buffer.from([0, 1, 3, 4]),
        'dir/renamed big.txt': Array.from({ length: 51 }, (_, i) => `line ${i + 1}\n`).join(''),
      },
      'feature: edit',
      ALICE,
      { renames: { 'big.txt': 'dir/renamed big.txt' } },
    );
    add = await f.commit({ [NL_NAME]: 'new\n', [UNICODE_NAME]: 'u\n', [TAB_NAME]: 't\nt\n' }, 'feature: add\n\nwith a body', ALICE, {
      executable: ['same.sh'],
    });
    await f.checkout('main');
    mainTip = await f.commit({ 'main-only.txt': 'only on main\n' }, 'main: other', BOB);
    await f.checkout('merged', 'feature');
    mergedTip = await f.mergeIn('main', 'merge main into feature');
    await f.git(['checkout', '-q', '--orphan', 'orphan']);
    await f.git(['rm', '-q', '-rf', '.']);
    orphan = await f.commit({ 'other.txt': 'unrelated\n' }, 'orphan root');
  });

  afterAll(() => f.cleanup());

  it('finds the merge base, or null for unrelated histories', async () => {
    expect(await mergeBase(f.bare, 'main', 'feature')).toBe(init);
    expect(await mergeBase(f.bare, mainTip, add)).toBe(init);
    expect(await mergeBase(f.bare, 'main', 'merged')).toBe(mainTip);
    expect(await mergeBase(f.bare, 'main', orphan)).toBeNull();
  });

  it('tells ancestors apart', async () => {
    expect(await isAncestor(f.bare, init, add)).toBe(true);
    expect(await isAncestor(f.bare, add, add)).toBe(true);
    expect(await isAncestor(f.bare, add, mainTip)).toBe(false);
    expect(await isAncestor(f.bare, mainTip, mergedTip)).toBe(true);
    expect(await isAncestor(f.bare, orphan, mainTip)).toBe(false);
  });

  it('rejects unknown commits with NotFound and option-like or ranged revisions with InvalidArgument', async () => {
    const missing = 'deadbeef'.repeat(5);
    await expect(mergeBase(f.bare, missing, 'main')).rejects.toBeInstanceOf(NotFoundError);
    await expect(isAncestor(f.bare, 'main', 'no-such-branch')).rejects.toBeInstanceOf(NotFoundError);
    await expect(compareCommits(f.bare, 'main', missing)).rejects.toBeInstanceOf(NotFoundError);
    await expect(diffStats(f.bare, missing, 'main')).rejects.toBeInstanceOf(NotFoundError);
    await expect(diffStats(f.bare, 'main', 'refs/heads/nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(mergeBase(f.bare, '--output=/tmp/x', 'main')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(compareCommits(f.bare, 'main..feature', 'main')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(diffStats(f.bare, 'main', 'main~1')).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(diffStream(f.bare, 'main', missing)).rejects.toBeInstanceOf(NotFoundError);
    await expect(mergeBase(path.join(f.root, 'nope.git'), 'main', 'feature')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists the commits in head not in base, newest first, with parents and signatures', async () => {
    const r = await compareCommits(f.bare, 'main', 'feature');
    expect(r.total).toBe(2);
    expect(r.commits.map((c) => c.sha)).toEqual([add, edit]);
    const [first, second] = r.commits;
    expect(first?.parents).toEqual([edit]);
    expect(second?.parents).toEqual([init]);
    expect(first?.message).toBe('feature: add\n\nwith a body\n');
    expect(first?.author).toEqual({ name: ALICE.name, email: ALICE.email, when: expect.stringMatching(/^2023-11-14T\d\d:\d\d:\d\dZ$/) });
    expect(first?.committer.email).toBe(ALICE.email);
    expect(Date.parse(first?.author.when ?? '')).toBeGreaterThan(Date.parse(second?.author.when ?? ''));
  });

  it('includes merge commits and pages with skip/limit over an uncapped total', async () => {
    const all = await compareCommits(f.bare, 'main', 'merged');
    expect(all.total).toBe(3);
    expect(all.commits[0]?.sha).toBe(mergedTip);
    expect(all.commits[0]?.parents).toEqual([add, mainTip]);
    const page = await compareCommits(f.bare, 'main', 'merged', { skip: 1, limit: 1 });
    expect(page.total).toBe(3);
    expect(page.commits.map((c) => c.sha)).toEqual([add]);
    expect((await compareCommits(f.bare, 'feature', 'main')).commits.map((c) => c.sha)).toEqual([mainTip]);
    expect(await compareCommits(f.bare, 'feature', 'feature')).toEqual({ total: 0, commits: [] });
    // The total without a count command (the page reached the end) and with one (more than a page, or a skip
    // past the end).
    expect((await compareCommits(f.bare, 'main', 'merged', { limit: 3 })).total).toBe(3);
    expect((await compareCommits(f.bare, 'main', 'merged', { skip: 2, limit: 5 })).total).toBe(3);
    expect(await compareCommits(f.bare, 'main', 'merged', { skip: 5, limit: 5 })).toEqual({ total: 3, commits: [] });
    expect((await compareCommits(f.bare, 'main', 'merged', { limit: 2 })).total).toBe(3);
  });

  it('counts the divergence of two commits in both directions, unrelated histories included', async () => {
    expect(await countDivergence(f.bare, 'main', 'merged')).toEqual({ ahead: 3, behind: 0 });
    expect(await countDivergence(f.bare, 'feature', 'main')).toEqual({ ahead: 1, behind: 2 });
    expect(await countDivergence(f.bare, 'main', 'orphan')).toEqual({ ahead: 1, behind: 2 });
    await expect(countDivergence(f.bare, 'main', '0'.repeat(40))).rejects.toBeInstanceOf(NotFoundError);
    await expect(countDivergence(f.bare, '--all', 'main')).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('lists the commits of a head that none of the excluded revisions reach, newest first', async () => {
    expect(await commitsExcluding(f.bare, 'merged', ['main'], 10)).toEqual([mergedTip, add, edit]);
    expect(await commitsExcluding(f.bare, 'merged', ['main', edit], 10)).toEqual([mergedTip, add]);
    expect(await commitsExcluding(f.bare, 'merged', ['main'], 1)).toEqual([mergedTip]);
    expect(await commitsExcluding(f.bare, 'main', ['merged'], 10)).toEqual([]);
    await expect(commitsExcluding(f.bare, 'main', ['0'.repeat(40)], 10)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('counts additions, deletions, renames, binaries, mode changes and odd paths against the merge base', async () => {
    const s = await diffStats(f.bare, 'main', 'feature');
    expect(s.mergeBase).toBe(init);
    const byName = new Map(s.files.map((x) => [x.filename, x]));
    expect([...byName.keys()].sort()).toEqual(
      ['bin.dat', 'dir/renamed big.txt', 'f one.txt', 'keep.txt', NL_NAME, 'same.sh', TAB_NAME, UNICODE_NAME].sort(),
    );
    expect(byName.has('main-only.txt')).toBe(false);
    expect(byName.get('f one.txt')).toMatchObject({
      status: 'modified',
      additions: 2,
      deletions: 1,
      changes: 3,
      binary: false,
      previousFilename: null,
    });
    expect(byName.get('keep.txt')).toMatchObject({ status: 'deleted', additions: 0, deletions: 1, newMode: '000000' });
    expect(byName.get('bin.dat')).toMatchObject({ status: 'modified', additions: 0, deletions: 0, changes: 0, binary: true });
    expect(byName.get('dir/renamed big.txt')).toMatchObject({ status: 'renamed', previousFilename: 'big.txt', additions: 1, deletions: 0 });
    expect(byName.get(NL_NAME)).toMatchObject({ status: 'added', additions: 1, deletions: 0, oldMode: '000000', newMode: '100644' });
    expect(byName.get(UNICODE_NAME)).toMatchObject({ status: 'added', additions: 1 });
    expect(byName.get(TAB_NAME)).toMatchObject({ status: 'added', additions: 2 });
    expect(byName.get('same.sh')).toMatchObject({ status: 'modified', additions: 0, deletions: 0, oldMode: '100644', newMode: '100755' });
    expect(byName.get('f one.txt')?.newSha).toMatch(/^[0-9a-f]{40}$/);
    expect({ additions: s.additions, deletions: s.deletions, changedFiles: s.changedFiles }).toEqual({
      additions: 7,
      deletions: 2,
      changedFiles: 8,
    });
  });

  it('is a three-dot diff: commits the base gained later do not count, and a merged base adds nothing', async () => {
    const s = await diffStats(f.bare, 'main', 'merged');
    expect(s.mergeBase).toBe(mainTip);
    expect(s.changedFiles).toBe(8);
    expect(s.files.some((x) => x.filename === 'main-only.txt')).toBe(false);
    expect(await diffStats(f.bare, 'feature', 'feature')).toEqual({
      mergeBase: add,
      additions: 0,
      deletions: 0,
      changedFiles: 0,
      files: [],
    });
  });

  it('diffs unrelated histories from the base itself (Gitea falls back to the base commit)', async () => {
    const s = await diffStats(f.bare, 'main', orphan);
    expect(s.mergeBase).toBeNull();
    expect(s.files.find((x) => x.filename === 'other.txt')?.status).toBe('added');
    expect(s.files.find((x) => x.filename === 'main-only.txt')?.status).toBe('deleted');
  });

  it('streams the .diff exactly as git diff -M <merge base> <head>', async () => {
    const streamed = await text(await diffStream(f.bare, 'main', 'feature'));
    expect(streamed).toBe(await f.bareGit(['diff', '-M', init, add, '--']));
    expect(streamed).toContain('rename from big.txt');
    expect(streamed).toContain('Binary files');
    expect(streamed).not.toContain('main-only.txt');
  });

  it('streams the .patch as a mailbox of the head commits, oldest first', async () => {
    const streamed = await text(await patchStream(f.bare, 'main', 'feature'));
    expect(streamed.startsWith(`From ${edit} `)).toBe(true);
    expect(streamed.indexOf('Subject: [PATCH 1/2] feature: edit')).toBeLessThan(streamed.indexOf('Subject: [PATCH 2/2] feature: add'));
    expect(streamed).toContain('with a body');
    expect(streamed).not.toContain('main-only.txt');
    expect(streamed).not.toContain('\n-- \n2.'); // --no-signature
  });

  it('stops cleanly when the reader goes away early', async () => {
    const stream = await diffStream(f.bare, 'main', 'feature');
    const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()));
    stream.once('data', () => stream.destroy());
    await closed;
    expect(stream.destroyed).toBe(true);
  });

  it('works on a sha256 repository', async () => {
    const g = await RepoFixture.create('sha256');
    try {
      const base = await g.commit({ 'a.txt': 'one\n', 'b.bin': Buffer.from([0, 9]) }, 'base');
      await g.checkout('topic', 'main');
      const tip = await g.commit({ 'a.txt': 'one\ntwo\n', 'b.bin': Buffer.from([0, 8]), 'c d.txt': 'c\n' }, 'topic');
      expect(await mergeBase(g.bare, 'main', 'topic')).toBe(base);
      expect(base).toMatch(/^[0-9a-f]{64}$/);
      const s = await diffStats(g.bare, 'main', 'topic');
      expect({ additions: s.additions, deletions: s.deletions, changedFiles: s.changedFiles }).toEqual({
        additions: 2,
        deletions: 0,
        changedFiles: 3,
      });
      expect(s.files.find((x) => x.filename === 'b.bin')).toMatchObject({ binary: true, newSha: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect((await compareCommits(g.bare, 'main', 'topic')).commits.map((c) => c.sha)).toEqual([tip]);
      expect(await text(await patchStream(g.bare, 'main', 'topic'))).toContain(`From ${tip} `);
    } finally {
      g.cleanup();
    }
  });
});
