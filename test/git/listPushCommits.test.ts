import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptPushHead, listPushCommits, readPushCommitLists } from '../../src/git/listPushCommits.ts';
import { ALICE, RepoFixture } from './fixture.ts';

const ZERO = '0'.repeat(40);

describe('listPushCommits: the commits a ref update brought', () => {
  let f: RepoFixture;
  let base: string;
  const pushed: string[] = [];

  beforeAll(async () => {
    f = await RepoFixture.create();
    base = await f.commit({ 'a.txt': 'a\n' }, 'base');
    await f.checkout('topic', 'main');
    for (let i = 1; i <= 7; i++) pushed.push(await f.commit({ 'a.txt': `${i}\n` }, `topic ${i}\n\nbody ${i}`, ALICE));
  });
  afterAll(() => f.cleanup());

  it('lists the newest `max` commits with the total of the range, newest first', async () => {
    const tip = pushed.at(-1) ?? '';
    const five = await listPushCommits(f.bare, 'refs/heads/topic', base, tip, 5);
    expect(five.total).toBe(7);
    expect(five.commits.map((c) => c.Sha1)).toEqual([...pushed].reverse().slice(0, 5));
    expect(five.commits[0]).toMatchObject({ Message: 'topic 7\n\nbody 7\n', AuthorName: ALICE.name, AuthorEmail: ALICE.email });
    // The same update asked for more (commit references read up to 100): every commit, same total.
    const all = await listPushCommits(f.bare, 'refs/heads/topic', base, tip, 100);
    expect(all).toMatchObject({ total: 7 });
    expect(all.commits.map((c) => c.Sha1)).toEqual([...pushed].reverse());
    // Exactly max commits: no more to count.
    const exact = await listPushCommits(f.bare, 'refs/heads/topic', pushed[1] ?? '', tip, 5);
    expect(exact.total).toBe(5);
    expect(exact.commits).toHaveLength(5);
    // Over the kept size: read on its own.
    expect((await listPushCommits(f.bare, 'refs/heads/topic', base, tip, 500)).total).toBe(7);
  });

  it('for a new branch, lists the commits no other branch has', async () => {
    const created = await listPushCommits(f.bare, 'refs/heads/topic', ZERO, pushed.at(-1) ?? '', 3);
    expect(created.total).toBe(7);
    expect(created.commits.map((c) => c.Sha1)).toEqual([...pushed].reverse().slice(0, 3));
    // A branch off topic with one commit of its own: only that one is new.
    await f.checkout('side', 'topic');
    const side = await f.commit({ 'b.txt': 'b\n' }, 'side');
    expect(await listPushCommits(f.bare, 'refs/heads/side', ZERO, side, 5)).toMatchObject({ total: 1, commits: [{ Sha1: side }] });
  });

  it("keeps a read update's head for the push's branch row; none for an update not read, or one that brought no commit", async () => {
    const tip = pushed.at(-1) ?? '';
    expect(await keptPushHead(f.bare, 'refs/heads/other', base, tip)).toBeUndefined();
    await listPushCommits(f.bare, 'refs/heads/other', base, tip, 1);
    expect(await keptPushHead(f.bare, 'refs/heads/other', base, tip)).toMatchObject({ Sha1: tip, Message: 'topic 7\n\nbody 7\n' });
    // A new branch at a commit other branches have: nothing of its own, so no head from the list.
    await listPushCommits(f.bare, 'refs/heads/copy', ZERO, base, 1);
    expect(await keptPushHead(f.bare, 'refs/heads/copy', ZERO, base)).toBeUndefined();
  });

  it('reads ahead the first 8 branch updates of a push, one at a time, and leaves the rest and tags to the bookkeeping', async () => {
    const tip = pushed.at(-1) ?? '';
    const updates = Array.from({ length: 10 }, (_, k) => ({ ref: `refs/heads/ahead${k}`, oldSha: base, newSha: tip }));
    await readPushCommitLists(f.bare, [{ ref: 'refs/tags/t', oldSha: ZERO, newSha: tip }, ...updates]);
    const heads = await Promise.all(updates.map((u) => keptPushHead(f.bare, u.ref, u.oldSha, u.newSha)));
    expect(heads.map((h) => h?.Sha1 ?? null)).toEqual([...Array<string>(8).fill(tip), null, null]);
  });

  it("keeps a push's read-ahead lists when earlier pushes have filled the keep: the oldest go first", async () => {
    const tip = pushed.at(-1) ?? '';
    // 256 lists are kept (KEEP_MAX); earlier pushes leave it at the brim.
    for (let k = 0; k < 256; k += 32) {
      await Promise.all(Array.from({ length: 32 }, (_, j) => listPushCommits(f.bare, `refs/heads/earlier${k + j}`, base, tip, 1)));
    }
    const updates = Array.from({ length: 8 }, (_, k) => ({ ref: `refs/heads/full${k}`, oldSha: base, newSha: tip }));
    await readPushCommitLists(f.bare, updates);
    const heads = await Promise.all(updates.map((u) => keptPushHead(f.bare, u.ref, u.oldSha, u.newSha)));
    expect(heads.map((h) => h?.Sha1 ?? null)).toEqual(Array<string>(8).fill(tip));
    // The oldest earlier lists made room; the newest are still kept.
    expect(await keptPushHead(f.bare, 'refs/heads/earlier0', base, tip)).toBeUndefined();
    expect(await keptPushHead(f.bare, 'refs/heads/earlier255', base, tip)).toMatchObject({ Sha1: tip });
  });
});
