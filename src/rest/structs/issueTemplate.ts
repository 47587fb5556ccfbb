import { z } from 'zod';

/** Gitea `IssueFormField` (modules/structs/issue.go), fields in Gitea's order. */
const IssueFormField = z.object({
  type: z.enum(['markdown', 'textarea', 'input', 'dropdown', 'checkboxes']),
  id: z.string(),
  attributes: z.record(z.string(), z.unknown()).nullable(),
  validations: z.record(z.string(), z.unknown()).nullable(),
  visible: z.array(z.enum(['form', 'content'])),
});

/** Gitea `IssueTemplate`: `labels`, `assignees` and `body` are null when the file has none (Go nil slices). */
export const IssueTemplate = z.object({
  name: z.string(),
  title: z.string(),
  about: z.string(),
  labels: z.array(z.string()).nullable(),
  assignees: z.array(z.string()).nullable(),
  ref: z.string(),
  content: z.string(),
  body: z.array(IssueFormField).nullable(),
  file_name: z.string(),
});

/** Gitea `IssueConfig`. */
export const IssueConfig = z.object({
  blank_issues_enabled: z.boolean(),
  contact_links: z.array(z.object({ name: z.string(), url: z.string(), about: z.string() })),
});

/** Gitea `IssueConfigValidation`. */
export const IssueConfigValidation = z.object({ valid: z.boolean(), message: z.string() });
