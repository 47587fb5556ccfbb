// A unified diff applied to a commit's tree without a work tree (Gitea ApplyDiffPatch): a temporary index read
// from the commit, `git apply --cached`, `git write-tree`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ValidationError } from '../errors.ts';
import { assertRevision } from './revision.ts';
import { runGit, runGitResult } from './run.ts';

/**
 * The tree of `parent` (null: the empty tree) with `patch` applied, and the paths it changed. Gitea's flags:
 * `--recount --ignore-whitespace --whitespace=fix --binary -3`. Nothing but objects is written.
 * @throws ValidationError when git cannot apply the patch (its complaint is the message)
 */
export async function applyPatch(gitDir: string, parent: string | null, patch: string): Promise<{ tree: string; paths: string[] }> {
  if (parent) assertRevision(parent);
  const dir = await mkdtemp(path.join(tmpdir(), 'fg-patch-'));
  const env = { GIT_INDEX_FILE: path.join(dir, 'index') };
  try {
    await runGit(gitDir, parent ? ['read-tree', parent] : ['read-tree', '--empty'], { env });
    const input = patch.endsWith('\n') ? patch : `${patch}\n`;
    const args = ['apply', '--cached', '--recount', '--ignore-whitespace', '--whitespace=fix', '--binary', '-3', '-'];
    // With -3, git writes a file it merged three ways relative to its working directory even with --cached in a
    // bare repository: run it in the scratch directory, never the server's.
    const applied = await runGitResult(gitDir, args, { env, input, cwd: dir });
    if (applied.code !== 0) {
      const complaint = applied.stderr.trim() || `git apply exited with ${applied.code}`;
      throw new ValidationError(`patch does not apply: ${complaint}`, { stderr: applied.stderr });
    }
    const tree = (await runGit(gitDir, ['write-tree'], { env })).toString('utf8').trim();
    const diff = parent
      ? await runGit(gitDir, ['diff-tree', '-r', '--name-only', '--no-renames', '-z', parent, tree])
      : await runGit(gitDir, ['ls-tree', '-r', '--name-only', '-z', tree]);
    return { tree, paths: diff.toString('utf8').split('\0').filter(Boolean) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
