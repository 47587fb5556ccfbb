// Gitea wiki shapes (modules/structs/repo_wiki.go).
import { z } from 'zod';
import { CommitUser } from './pull.ts';

/** Gitea `WikiCommit`: `commiter` is spelled as Gitea spells it. */
export const WikiCommit = z.object({ sha: z.string(), author: CommitUser, commiter: CommitUser, message: z.string() });
export type WikiCommit = z.infer<typeof WikiCommit>;

/** Gitea `WikiPageMetaData`. */
export const WikiPageMetaData = z.object({
  title: z.string(),
  html_url: z.string(),
  sub_url: z.string(),
  last_commit: WikiCommit,
});
export type WikiPageMetaData = z.infer<typeof WikiPageMetaData>;

/** Gitea `WikiPage`: the metadata, the content and the wiki's sidebar and footer, each base64. */
export const WikiPage = WikiPageMetaData.extend({
  content_base64: z.string(),
  commit_count: z.number().int(),
  sidebar: z.string(),
  footer: z.string(),
});
export type WikiPage = z.infer<typeof WikiPage>;

/** Gitea `WikiCommitList`. */
export const WikiCommitList = z.object({ commits: z.array(WikiCommit), count: z.number().int() });
export type WikiCommitList = z.infer<typeof WikiCommitList>;

/** Gitea `CreateWikiPageOptions` (create and edit). */
export const CreateWikiPageOptions = z.object({
  title: z.string().nullable().optional(),
  content_base64: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
});
