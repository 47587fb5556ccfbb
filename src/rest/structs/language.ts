// Gitea's language statistics response: bytes per language name.
import { z } from 'zod';

/** Gitea `LanguageStatistics`: `{"Go": 12345, …}`. */
export const LanguageStatistics = z.record(z.string(), z.number().int());
