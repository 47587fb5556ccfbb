// Writes a commit from file changes without a work tree: a temporary index, `update-index`, `write-tree`, `commit-tree`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { identityEnv, type GitIdentity } from './identity.ts';
import { GitCommandError, runGit, spawnGit } from './run.ts';

/** One change: a file written (content and mode), an existing blob placed (a rename), or a file removed. */
export type FileChange =
  { path: string; content: Buffer; mode: string } | { path: string; blob: string; mode: string } | { path: string; remove: true };

/** What to commit: the changes on top of `parent` (null: a root commit on an empty tree). */
export interface CommitFilesInput {
  parent: string | null;
  changes: readonly FileChange[];
  message: string;
  author: GitIdentity;
  committer: GitIdentity;
}

/** Writes `content` as a blob (`git hash-object -w --stdin`), streaming it to git. */
export function writeBlob(gitDir: string, content: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(gitDir, ['hash-object', '-w', '--stdin']);
    let out = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new GitCommandError(['hash-object'], code, stderr))));
    child.stdin.end(content);
  });
}

/**
 * Writes the commit of `changes` on `parent` and returns its id and tree; no ref moves (the caller
 * updates the branch with a compare-and-swap). The paths must be valid (checked by the caller).
 */
export async function commitFiles(gitDir: string, input: CommitFilesInput): Promise<{ commit: string; tree: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-index-'));
  const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
  try {
    if (input.parent) await runGit(gitDir, ['read-tree', input.parent], { env });
    const zero = '0'.repeat(input.parent?.length ?? 40);
    const lines: string[] = [];
    for (const c of input.changes) {
      if ('remove' in c) lines.push(`0 ${zero}\t${c.path}`);
      else if ('blob' in c) lines.push(`${c.mode} ${c.blob}\t${c.path}`);
      else lines.push(`${c.mode} ${await writeBlob(gitDir, c.content)}\t${c.path}`);
    }
    await runGit(gitDir, ['update-index', '-z', '--index-info'], { env, input: lines.map((l) => `${l}\0`).join('') });
    const tree = (await runGit(gitDir, ['write-tree'], { env })).toString('utf8').trim();
    const commit = (
      await runGit(gitDir, ['commit-tree', tree, ...(input.parent ? ['-p', input.parent] : []), '-F', '-'], {
        input: input.message,
        env: { ...identityEnv('AUTHOR', input.author), ...identityEnv('COMMITTER', input.committer) },
      })
    )
      .toString('utf8')
      .trim();
    return { commit, tree };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
