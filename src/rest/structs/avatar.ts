import { z } from 'zod';

/** Gitea `UpdateUserAvatarOption` (users and organizations). */
export const UpdateUserAvatarOption = z.object({ image: z.string().optional().describe('image must be base64 encoded') });

/** Gitea `UpdateRepoAvatarOption`. */
export const UpdateRepoAvatarOption = z.object({ image: z.string().optional().describe('image must be base64 encoded') });
