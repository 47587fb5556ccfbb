import { z } from 'zod';
import { PayloadCommitVerification } from './git.ts';
import { CommitMeta, CommitUser } from './pull.ts';

/** Gitea `Tag` (modules/structs/repo_tag.go). */
export const Tag = z.object({
  name: z.string(),
  message: z.string(),
  id: z.string(),
  commit: CommitMeta,
  zipball_url: z.string(),
  tarball_url: z.string(),
});
export type Tag = z.infer<typeof Tag>;

/** Gitea `AnnotatedTagObject`. */
export const AnnotatedTagObject = z.object({ type: z.string(), url: z.string(), sha: z.string() });

/** Gitea `AnnotatedTag` (GET …/git/tags/{sha}). */
export const AnnotatedTag = z.object({
  tag: z.string(),
  sha: z.string(),
  url: z.string(),
  message: z.string(),
  tagger: CommitUser.nullable(),
  object: AnnotatedTagObject,
  verification: PayloadCommitVerification.nullable(),
});
export type AnnotatedTag = z.infer<typeof AnnotatedTag>;

/** Gitea `CreateTagOption`. */
export const CreateTagOption = z.object({
  tag_name: z.string(),
  message: z.string().optional(),
  target: z.string().optional(),
});
