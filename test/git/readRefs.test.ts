import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRefs } from '../../src/git/readRefs.ts';

/** readRefs reads the files backend without spawning git; git itself is the oracle. */
describe('readRefs', () => {
  let dir: string;
  let gitDir: string;
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim();
  const forEachRef = (refs: string[]) =>
    new Map(
      git('for-each-ref', '--format=%(objectname) %(refname)', ...refs)
        .split('\n')
        .filter(Boolean)
        .map((l) => [l.split(' ')[1]!, l.split(' ')[0]!] as const)
        .filter(([name]) => refs.includes(name)),
    );

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fg-readrefs-'));
    gitDir = path.join(dir, '.git');
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'one');
    git('branch', 'packed');
    git('tag', '-a', '-m', 'annotated', 'v1');
    git('pack-refs', '--all');
    git('-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-q', '--allow-empty', '-m', 'two');
    git('branch', 'feature/x');
    git('update-ref', 'refs/pull/1/head', 'HEAD~1');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('agrees with git for loose, packed, annotated-tag, nested and missing refs', async () => {
    const refs = [
      'refs/heads/main',
      'refs/heads/packed',
      'refs/tags/v1',
      'refs/heads/feature/x',
      'refs/pull/1/head',
      'refs/heads/feature',
      'refs/heads/nope',
    ];
    const got = await readRefs(gitDir, refs);
    expect(got).toEqual(forEachRef(refs));
    expect(got.has('refs/heads/nope')).toBe(false);
    expect(got.has('refs/heads/feature')).toBe(false);
    expect(got.get('refs/heads/main')).not.toBe(got.get('refs/heads/packed'));
  });

  it('sees a ref moved by git at once (no caching)', async () => {
    git('update-ref', 'refs/heads/packed', 'HEAD');
    expect((await readRefs(gitDir, ['refs/heads/packed'])).get('refs/heads/packed')).toBe(git('rev-parse', 'HEAD'));
    git('update-ref', '-d', 'refs/heads/packed');
    expect((await readRefs(gitDir, ['refs/heads/packed'])).size).toBe(0);
  });

  it('falls back to git for names that are not plain ref paths', async () => {
    expect(await readRefs(gitDir, ['refs/heads/../HEAD'])).toEqual(new Map());
  });
});
