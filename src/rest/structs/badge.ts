import { z } from 'zod';

/** Gitea `Badge` (modules/structs/user.go). */
export const Badge = z.object({ id: z.number().int(), slug: z.string(), description: z.string(), image_url: z.string() });
export type Badge = z.infer<typeof Badge>;

/** Gitea `UserBadgeOption`. */
export const UserBadgeOption = z.object({ badge_slugs: z.array(z.string()).optional() });
