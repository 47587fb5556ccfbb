// Streams the stdout of a git command (diffs, blobs, archives) without buffering it.
import { PassThrough, type Readable } from 'node:stream';
import { GitCommandError, spawnGit } from './run.ts';

/**
 * Streams a git command's stdout. The stream ends when git exits 0 and is destroyed with a GitCommandError
 * when it fails; destroying the stream (a client that went away) kills git. Nothing is buffered beyond the
 * pipe's high-water mark, so a diff of any size costs constant memory.
 */
export function streamGit(gitDir: string, args: readonly string[]): Readable {
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
