import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitCommandError, spawnGit } from './run.ts';

/** Writes commit objects; `write` resolves with the id git gave the object once it is in the repository. */
export interface CommitWriter {
  write(body: Buffer): Promise<string>;
  close(): Promise<void>;
}

/**
 * One `git hash-object -w -t commit --stdin-paths` kept open for a whole rebase: each object goes through a
 * temporary file and a line on stdin, and git answers (flushed per path on a pipe) once it is written, so a
 * commit costs a pipe round trip instead of a process. A failed git fails every pending and later write.
 */
export async function openCommitWriter(gitDir: string): Promise<CommitWriter> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-rebase-'));
  const child = spawnGit(gitDir, ['hash-object', '-w', '-t', 'commit', '--stdin-paths']);
  const pending: Array<(answer: string | Error) => void> = [];
  let failure: Error | null = null;
  let stdout = '';
  let stderr = '';
  const fail = (err: Error) => {
    failure ??= err;
    for (const answer of pending.splice(0)) answer(failure);
  };
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  child.on('error', fail);
  child.on('close', (code) => fail(new GitCommandError(['hash-object'], code, stderr)));
  child.stdin.on('error', fail);
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    for (let nl = stdout.indexOf('\n'); nl >= 0; nl = stdout.indexOf('\n')) {
      pending.shift()?.(stdout.slice(0, nl));
      stdout = stdout.slice(nl + 1);
    }
  });
  let count = 0;
  return {
    async write(body) {
      const file = path.join(dir, String(count++));
      await writeFile(file, body);
      const answer = await new Promise<string | Error>((resolve) => {
        if (failure) return resolve(failure);
        pending.push(resolve);
        child.stdin.write(`${file}\n`);
      });
      if (answer instanceof Error) throw answer;
      return answer;
    },
    async close() {
      child.stdin.end();
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
