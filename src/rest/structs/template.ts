// Gitea's template shapes (modules/structs/miscellaneous.go, issue_label.go) and the string lists that name them.
import { z } from 'zod';

/** Gitea `GitignoreTemplateList`: template names. */
export const GitignoreTemplateList = z.array(z.string());

/** Gitea `GitignoreTemplateInfo`. */
export const GitignoreTemplateInfo = z.object({ name: z.string(), source: z.string() });

/** Gitea `LabelTemplateList`: label set names. */
export const LabelTemplateList = z.array(z.string());

/** Gitea `LabelTemplate`: one label of a set, `color` without `#`. */
export const LabelTemplate = z.object({ name: z.string(), color: z.string(), description: z.string(), exclusive: z.boolean() });

/** Gitea `LicensesTemplateListEntry`. */
export const LicensesTemplateListEntry = z.object({ key: z.string(), name: z.string(), url: z.string() });

/** Gitea `LicenseTemplateInfo`. */
export const LicenseTemplateInfo = z.object({
  key: z.string(),
  name: z.string(),
  url: z.string(),
  body: z.string(),
  implementation: z.string(),
});

/** Gitea `LicensesList`: a repository's SPDX ids. */
export const LicensesList = z.array(z.string());
