import type { GitHookView } from '../../services/repo/gitHooks.ts';
import type { GitHook } from '../structs/gitHook.ts';

/** Gitea convert.ToGitHook. */
export function toApiGitHook(h: GitHookView): GitHook {
  return { name: h.name, is_active: h.isActive, content: h.content };
}
