import { z } from 'zod';

/** Gitea `GitHook`: one of a repository's server-side hook scripts (`content` empty and inactive when unset). */
export const GitHook = z.object({ name: z.string(), is_active: z.boolean(), content: z.string() });
export type GitHook = z.infer<typeof GitHook>;

/** Gitea `EditGitHookOption`: the new script; empty removes it. */
export const EditGitHookOption = z.object({ content: z.string().nullish() });
