import { z } from 'zod';

/** Gitea's `StringSlice` response: a JSON array of strings. */
export const StringSlice = z.array(z.string());
