// Facts about two commits kept briefly (src/git/commitPairFacts.ts): a kept answer is only ever one git would give now.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeBase } from '../../src/git/compare.ts';
import { checkMergeable } from '../../src/git/mergeTree.ts';
import { RepoFixture } from './fixture.ts';

describe('commit pair facts', () => {
  let f: RepoFixture;
  let base: string;
  let head: string;
  let fork: string;

  beforeAll(async () => {
    f = await RepoFixture.create();
    fork = await f.commit({ 'a.txt': 'a\n' }, 'init');
    await f.checkout('feature', 'main');
    head = await f.commit({ 'b.txt': 'b\n' }, 'feature');
    await f.checkout('main');
    base = await f.commit({ 'c.txt': 'c\n' }, 'main');
  });
  afterAll(() => f?.cleanup());

  const loose = (sha: string) => path.join(f.bare, 'objects', sha.slice(0, 2), sha.slice(2));
  const isObject = (sha: string) => {
    try {
      execFileSync('git', ['--git-dir', f.bare, 'cat-file', '-e', sha]);
      return true;
    } catch {
      return false;
    }
  };

  it('a trial merge whose tree is gone is computed again, and its tree exists', async () => {
    const first = await checkMergeable(f.bare, base, head);
    expect(first.status).toBe('clean');
    const tree = first.status === 'clean' ? first.tree : '';
    expect(existsSync(loose(tree))).toBe(true);
    expect(await checkMergeable(f.bare, base, head)).toEqual(first);
    rmSync(loose(tree));
    expect(isObject(tree)).toBe(false);
    const again = await checkMergeable(f.bare, base, head);
    expect(again).toEqual(first);
    expect(isObject(tree)).toBe(true);
  });

  it('branch names are not kept: a moved branch gives the new merge base', async () => {
    expect(await mergeBase(f.bare, 'main', 'feature')).toBe(fork);
    execFileSync('git', ['--git-dir', f.bare, 'update-ref', 'refs/heads/feature', base]);
    expect(await mergeBase(f.bare, 'main', 'feature')).toBe(base);
    expect(await mergeBase(f.bare, base, head)).toBe(fork);
  });
});
