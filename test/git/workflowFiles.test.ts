import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkflowFiles } from '../../src/git/workflowFiles.ts';

/**
 * readWorkflowFiles keeps a commit's workflow files once read, within a bound on their size. What is kept is seen
 * by reading again from a copy of the repository that was then removed: a kept commit still answers, one that was
 * not kept fails like a missing repository.
 */
describe('readWorkflowFiles', () => {
  let dir: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', path.join(dir, 'work'), '-c', 'user.name=t', '-c', 'user.email=t@e', ...args], {
      encoding: 'utf8',
    }).trim();
  /** Commits the workflow `ci.yml` with `body` and returns the commit. */
  const commitWorkflow = (body: string) => {
    writeFileSync(path.join(dir, 'work/.gitea/workflows/ci.yml'), body);
    git('add', '-A');
    git('commit', '-q', '-m', 'workflow');
    return git('rev-parse', 'HEAD');
  };
  /** A copy of the repository's git directory, to be removed after a first read. */
  const copyOfGitDir = (name: string) => {
    const copy = path.join(dir, name);
    cpSync(path.join(dir, 'work/.git'), copy, { recursive: true });
    return copy;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fg-workflows-'));
    mkdirSync(path.join(dir, 'work/.gitea/workflows'), { recursive: true });
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(dir, 'work/README.md'), 'hi\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps a commit whose workflow files are small, reads one past the size bound each time, keeps no failure', async () => {
    const small = commitWorkflow('on: issues\njobs: {}\n');
    const smallDir = copyOfGitDir('small.git');
    const first = await readWorkflowFiles(smallDir, small);
    expect(first).toEqual([{ name: 'ci.yml', path: '.gitea/workflows/ci.yml', content: 'on: issues\njobs: {}\n' }]);
    rmSync(smallDir, { recursive: true });
    expect(await readWorkflowFiles(smallDir, small)).toBe(first);

    // 5 MB of workflow text: more than the cache holds in all.
    const big = commitWorkflow(`on: issues\n${'# padding\n'.repeat(500_000)}`);
    const bigDir = copyOfGitDir('big.git');
    expect((await readWorkflowFiles(bigDir, big))[0]!.content).toHaveLength(5_000_011);
    rmSync(bigDir, { recursive: true });
    await expect(readWorkflowFiles(bigDir, big)).rejects.toThrow();
    // Not kept either: the failure. The repository back in place answers again.
    cpSync(path.join(dir, 'work/.git'), bigDir, { recursive: true });
    expect((await readWorkflowFiles(bigDir, big))[0]!.content).toHaveLength(5_000_011);
    // The small commit was not pushed out by the big one.
    expect(await readWorkflowFiles(smallDir, small)).toBe(first);
  });
});
