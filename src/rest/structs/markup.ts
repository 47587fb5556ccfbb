// Gitea markup shapes (modules/structs/miscellaneous.go MarkdownOption, MarkupOption).
import { z } from 'zod';
import { withAliases, zBool } from '../validation.ts';

const optString = z.string().nullable().optional();
const optBool = zBool.nullable().optional();

/**
 * Gitea `MarkdownOption`. Its Go fields have no JSON tags, so Go's decoder takes any spelling of their names:
 * the lower-case ones are accepted too (left out of the document).
 */
export const MarkdownOption = withAliases(
  z.object({
    Text: optString,
    text: optString,
    Mode: optString,
    mode: optString,
    Context: optString,
    context: optString,
    Wiki: optBool,
    wiki: optBool,
  }),
  ['text', 'mode', 'context', 'wiki'],
);
/** A MarkdownOption as parsed. */
export type MarkdownOption = z.infer<typeof MarkdownOption>;

/** Gitea `MarkupOption`: MarkdownOption with the previewed file's path (mode `file`). */
export const MarkupOption = withAliases(z.object({ ...MarkdownOption.shape, FilePath: optString, filepath: optString }), [
  'text',
  'mode',
  'context',
  'wiki',
  'filepath',
]);
