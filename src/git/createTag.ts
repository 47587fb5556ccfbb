// Creates a tag (lightweight, or annotated with a message and tagger) pointing at a commit.
import { AlreadyExistsError, ValidationError } from '../errors.ts';
import { identityEnv, type GitIdentity } from './identity.ts';
import { isSafeRefName } from './resolveRef.ts';
import { assertSha } from './revision.ts';
import { GitCommandError, runGit } from './run.ts';

/** What a new tag carries: a message and tagger make it annotated (a tag object); otherwise a lightweight ref. */
export interface NewTag {
  name: string;
  commit: string;
  message?: string;
  tagger?: GitIdentity;
}

/** Whether git accepts `name` as a tag name (git check-ref-format, plus no leading `-`). */
export function isValidTagName(name: string): boolean {
  return isSafeRefName(name) && !name.startsWith('-') && !name.endsWith('.') && !/[\s]/.test(name);
}

/**
 * Creates `refs/tags/<name>` at `commit` (git tag); never moves an existing tag. Returns the new ref's value
 * (the tag object of an annotated tag, else the commit).
 * @throws ValidationError for a name git refuses, AlreadyExistsError when the tag exists, InvalidArgumentError
 */
export async function createTag(gitDir: string, tag: NewTag): Promise<string> {
  assertSha(tag.commit, 'tag target');
  if (!isValidTagName(tag.name)) throw new ValidationError(`"${tag.name}" is not a valid tag name`, { field: 'tag_name', rule: 'Invalid' });
  const annotated = tag.message !== undefined && tag.message !== '' && tag.tagger !== undefined;
  const args = annotated ? ['tag', '-a', '-F', '-', '--cleanup=verbatim', '--', tag.name, tag.commit] : ['tag', '--', tag.name, tag.commit];
  try {
    await runGit(gitDir, args, annotated ? { input: tag.message, env: identityEnv('COMMITTER', tag.tagger!) } : {});
  } catch (err) {
    if (err instanceof GitCommandError && /already exists/.test(err.stderr)) {
      throw new AlreadyExistsError(`tag ${tag.name} already exists`, { tag: tag.name });
    }
    throw err;
  }
  return (await runGit(gitDir, ['rev-parse', '--verify', '--end-of-options', `refs/tags/${tag.name}`])).toString('utf8').trim();
}
