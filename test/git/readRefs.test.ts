import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packRefsIfMany } from '../../src/git/packRefs.ts';
import { looseRefNames, readAllRefs, readRefs } from '../../src/git/readRefs.ts';

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

  it('sees a packed ref that git moved and packed again (packed-refs rewritten, not read from a stale parse)', async () => {
    git('pack-refs', '--all');
    const first = (await readRefs(gitDir, ['refs/tags/v1', 'refs/heads/main'])).get('refs/heads/main');
    expect(first).toBe(git('rev-parse', 'refs/heads/main'));
    git('update-ref', 'refs/heads/main', 'HEAD~1');
    git('pack-refs', '--all');
    expect(await looseRefNames(gitDir, 10)).toEqual([]);
    expect((await readRefs(gitDir, ['refs/tags/v1', 'refs/heads/main'])).get('refs/heads/main')).toBe(git('rev-parse', 'HEAD~0'));
    expect((await readRefs(gitDir, ['refs/heads/main'])).get('refs/heads/main')).not.toBe(first);
  });
});

/** A repository's upkeep packs its refs once many are loose (a push lists them all); git agrees with what is read. */
describe('packRefsIfMany', () => {
  let dir: string;
  const git = (...args: string[]) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8' }).trim();

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fg-packrefs-'));
    git('init', '-q', '--bare', '-b', 'main');
    const tree = git('hash-object', '-t', 'tree', '-w', '/dev/null');
    const commit = execFileSync('git', ['--git-dir', dir, 'commit-tree', '-m', 'one', tree], {
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
    }).trim();
    for (let k = 0; k < 6; k++) git('update-ref', `refs/heads/b${k}`, commit);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves up to the limit loose, packs more, and every ref reads the same before and after', async () => {
    expect(await packRefsIfMany(dir, 6)).toBe(false);
    expect(await looseRefNames(dir, 100)).toHaveLength(6);
    const before = await readAllRefs(dir, 100);
    git('update-ref', 'refs/tags/t1', 'refs/heads/b0');
    expect(await packRefsIfMany(dir, 6)).toBe(true);
    expect(await looseRefNames(dir, 100)).toEqual([]);
    const after = await readAllRefs(dir, 100);
    expect(after).toEqual([...before!, { ref: 'refs/tags/t1', sha: git('rev-parse', 'refs/heads/b0') }]);
    expect(git('for-each-ref', '--format=%(refname)').split('\n')).toEqual(after!.map((r) => r.ref));
  });
});
