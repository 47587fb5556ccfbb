// The one commit of a repository generated from a template (Gitea services/repository/generate.go
// generateRepoCommit): the template's tree, edited, committed on its own into a new repository.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { identityEnv, type GitIdentity } from './identity.ts';
import { parseLsTree } from './readTreePath.ts';
import { runGit, runGitResult } from './run.ts';

/** A file of the template's tree as the new commit keeps it (`oid`) or rewrites it (`content`). */
export type TemplateFile = { mode: string; path: string; oid: string } | { mode: string; path: string; content: string };

/** A tree entry of the template (blobs and submodule commits; trees are implied by the paths). */
export interface TemplateTreeEntry {
  mode: string;
  type: 'blob' | 'commit';
  oid: string;
  path: string;
}

/** Every non-tree entry of the tree of `branch`'s tip (`git ls-tree -r -z`); null when there is no such branch. */
export async function listTemplateTree(gitDir: string, branch: string): Promise<TemplateTreeEntry[] | null> {
  const found = await runGitResult(gitDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}^{commit}`]);
  if (found.code !== 0) return null;
  const out = await runGit(gitDir, ['ls-tree', '-r', '-z', '--end-of-options', found.stdout.toString('utf8').trim()]);
  return parseLsTree(out).map((e) => ({ mode: e.mode, type: e.type === 'commit' ? 'commit' : 'blob', oid: e.sha, path: e.path }));
}

/** A blob's bytes. */
export async function readTemplateBlob(gitDir: string, oid: string): Promise<Buffer> {
  return runGit(gitDir, ['cat-file', 'blob', oid]);
}

/** What the generated commit is made of. */
export interface CommitTemplateTreeInput {
  /** The template's bare repository (the objects of `files` kept by `oid` are there). */
  source: string;
  /** The new, empty bare repository. */
  gitdir: string;
  branch: string;
  files: readonly TemplateFile[];
  author: GitIdentity;
  message: string;
}

/**
 * Writes `files` as one parentless commit on `refs/heads/<branch>` of `gitdir` and returns its id. The
 * template's objects are borrowed for the build (a temporary index, GIT_ALTERNATE_OBJECT_DIRECTORIES) and then
 * copied in by `git repack -a -d`, so the new repository ends up self-contained and without the template's
 * history.
 */
export async function commitTemplateTree(input: CommitTemplateTreeInput): Promise<string> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'fg-generate-'));
  const env = {
    GIT_ALTERNATE_OBJECT_DIRECTORIES: path.resolve(input.source, 'objects'),
    GIT_INDEX_FILE: path.join(scratch, 'index'),
    ...identityEnv('AUTHOR', input.author),
    ...identityEnv('COMMITTER', input.author),
  };
  const git = async (args: string[], stdin?: string) => (await runGit(input.gitdir, args, { input: stdin, env })).toString('utf8').trim();
  try {
    const lines: string[] = [];
    for (const f of input.files) {
      const oid = 'oid' in f ? f.oid : await git(['hash-object', '-w', '--stdin'], f.content);
      lines.push(`${f.mode} ${oid}\t${f.path}\0`);
    }
    await git(['update-index', '-z', '--index-info'], lines.join(''));
    const tree = await git(['write-tree']);
    const oid = await git(['commit-tree', tree, '-F', '-'], input.message);
    await git(['update-ref', `refs/heads/${input.branch}`, oid, '']);
    await git(['repack', '-a', '-d', '-q']);
    return oid;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
