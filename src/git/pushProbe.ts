import path from 'node:path';
import { assertRevision } from './revision.ts';
import { runGit } from './run.ts';

/**
 * The environment that lets git see the objects of a push still in quarantine (pre-receive): the quarantine
 * directory as the object store, the repository's own objects as its alternate. An unknown or foreign path
 * gives the plain environment.
 */
export function quarantineEnv(gitDir: string, quarantinePath: string): Record<string, string> {
  const objects = path.resolve(gitDir, 'objects');
  const q = path.resolve(quarantinePath);
  if (!quarantinePath || path.dirname(q) !== objects) return {};
  return { GIT_OBJECT_DIRECTORY: q, GIT_ALTERNATE_OBJECT_DIRECTORIES: objects };
}

/** Whether moving a ref from `oldSha` to `newSha` drops commits (Gitea: `git rev-list --max-count=1 old ^new`). */
export async function isForcePush(gitDir: string, oldSha: string, newSha: string, env: Record<string, string> = {}): Promise<boolean> {
  assertRevision(oldSha);
  assertRevision(newSha);
  const out = await runGit(gitDir, ['rev-list', '--max-count=1', oldSha, `^${newSha}`, '--'], { env });
  return out.toString('utf8').trim() !== '';
}

/** The paths that differ between two commits (`git diff --name-only`). */
export async function changedPaths(gitDir: string, oldSha: string, newSha: string, env: Record<string, string> = {}): Promise<string[]> {
  assertRevision(oldSha);
  assertRevision(newSha);
  const out = await runGit(gitDir, ['diff', '--name-only', '-z', '--no-renames', oldSha, newSha, '--'], { env });
  return out
    .toString('utf8')
    .split('\0')
    .filter((p) => p !== '');
}

/**
 * The commits a push brings to a branch, as Gitea's verifyCommits lists them: `old...new`, or for a new branch
 * what `new` reaches that no ref does.
 */
export async function pushedCommits(gitDir: string, oldSha: string, newSha: string, env: Record<string, string> = {}): Promise<string[]> {
  assertRevision(oldSha);
  assertRevision(newSha);
  const args = /^0+$/.test(oldSha) ? ['rev-list', newSha, '--not', '--all'] : ['rev-list', `${oldSha}...${newSha}`];
  const out = await runGit(gitDir, [...args, '--'], { env });
  return out
    .toString('utf8')
    .split('\n')
    .filter((s) => s !== '');
}
