import fs from 'node:fs';
import { isomorphicGit } from '../lazyPackage.ts';
import { toDomainError } from './errors.ts';
import { runGit } from './run.ts';

/** A file of the initial commit (top level only, as Gitea's README/.gitignore/LICENSE). */
export interface InitialFile {
  path: string;
  content: string;
}

/** What the first commit of a new repository is made of. */
export interface WriteInitialCommitInput {
  gitdir: string;
  objectFormat: 'sha1' | 'sha256';
  branch: string;
  files: readonly InitialFile[];
  /** Author and committer (Gitea: the creating user). */
  author: { name: string; email: string };
  when: Date;
  message?: string;
}

/**
 * Commits `files` onto `refs/heads/<branch>` of an empty bare repository without a work tree and returns
 * the commit id. sha1 repositories are written in-process with isomorphic-git; sha256 ones with the git CLI
 * (hash-object, mktree, commit-tree, update-ref), because isomorphic-git 1.44 writes sha1 objects only.
 * @throws NotFoundError, InvalidArgumentError
 */
export async function writeInitialCommit(input: WriteInitialCommitInput): Promise<string> {
  const message = input.message ?? 'Initial commit\n';
  return input.objectFormat === 'sha256' ? withCli(input, message) : withIsomorphicGit(input, message);
}

async function withIsomorphicGit(input: WriteInitialCommitInput, message: string): Promise<string> {
  const { gitdir } = input;
  try {
    const tree = await isomorphicGit().writeTree({
      fs,
      gitdir,
      tree: await Promise.all(
        input.files.map(async (f) => ({
          mode: '100644',
          path: f.path,
          type: 'blob' as const,
          oid: await isomorphicGit().writeBlob({ fs, gitdir, blob: Buffer.from(f.content, 'utf8') }),
        })),
      ),
    });
    const who = {
      name: input.author.name,
      email: input.author.email,
      timestamp: Math.floor(input.when.getTime() / 1000),
      timezoneOffset: 0,
    };
    const oid = await isomorphicGit().writeCommit({ fs, gitdir, commit: { message, tree, parent: [], author: who, committer: who } });
    await isomorphicGit().writeRef({ fs, gitdir, ref: `refs/heads/${input.branch}`, value: oid, force: true });
    return oid;
  } catch (err) {
    throw toDomainError(err, 'cannot write the initial commit');
  }
}

async function withCli(input: WriteInitialCommitInput, message: string): Promise<string> {
  const { gitdir } = input;
  const date = `@${Math.floor(input.when.getTime() / 1000)} +0000`;
  const env = {
    GIT_AUTHOR_NAME: input.author.name,
    GIT_AUTHOR_EMAIL: input.author.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: input.author.name,
    GIT_COMMITTER_EMAIL: input.author.email,
    GIT_COMMITTER_DATE: date,
  };
  const text = async (args: string[], stdin?: string) => (await runGit(gitdir, args, { input: stdin, env })).toString('utf8').trim();
  const entries: string[] = [];
  for (const f of input.files) entries.push(`100644 blob ${await text(['hash-object', '-w', '--stdin'], f.content)}\t${f.path}`);
  const tree = await text(['mktree'], entries.map((e) => `${e}\n`).join(''));
  const oid = await text(['commit-tree', tree, '-F', '-'], message);
  await text(['update-ref', `refs/heads/${input.branch}`, oid, '']);
  return oid;
}
