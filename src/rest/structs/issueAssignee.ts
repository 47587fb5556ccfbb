import { z } from 'zod';
import { zStringList } from '../validation.ts';

/** Gitea `IssueAssigneesOption`: the usernames to add or remove. */
export const IssueAssigneesOption = z.object({
  assignees: zStringList.nullable().optional(),
});
