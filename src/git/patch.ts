import { PassThrough, type Readable } from 'node:stream';
import { mergeBase } from './compare.ts';
import { GitCommandError, spawnGit } from './run.ts';

/**
 * Streams a git command's stdout. The stream ends when git exits 0 and is destroyed with a GitCommandError
 * when it fails; destroying the stream (a client that went away) kills git. Nothing is buffered beyond the
 * pipe's high-water mark, so a diff of any size costs constant memory.
 */
function streamGit(gitDir: string, args: readonly string[]): Readable {
  const child = spawnGit(gitDir, args);
  child.stdin.end();
  const out = new PassThrough();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < 4096) stderr += d;
  });
  child.stdout.pipe(out, { end: false });
  child.on('error', (err) => out.destroy(err));
  child.on('close', (code) => {
    if (code === 0) out.end();
    else out.destroy(new GitCommandError(args, code, stderr));
  });
  out.on('close', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  });
  return out;
}

/**
 * The pull request diff as Gitea serves `.diff`: `git diff -M <merge base> <head>` (the three-dot diff; from
 * `base` itself when the histories are unrelated). The revisions are checked before the stream starts, so a
 * caller can still answer 404.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function diffStream(gitDir: string, base: string, head: string): Promise<Readable> {
  const from = (await mergeBase(gitDir, base, head)) ?? base;
  return streamGit(gitDir, ['diff', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--end-of-options', from, head, '--']);
}

/**
 * The pull request as a mailbox of patches, as Gitea serves `.patch`: `git format-patch --no-signature --stdout`
 * of the commits from the merge base to `head`, oldest first. Checked before the stream starts, as diffStream.
 * @throws InvalidArgumentError; NotFoundError when a revision does not name a commit
 */
export async function patchStream(gitDir: string, base: string, head: string): Promise<Readable> {
  const from = (await mergeBase(gitDir, base, head)) ?? base;
  return streamGit(gitDir, ['format-patch', '--no-signature', '--stdout', '--no-color', '--end-of-options', `${from}..${head}`, '--']);
}
