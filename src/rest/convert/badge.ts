import type { Models } from '../../db/client.ts';
import type { Badge } from '../structs/badge.ts';

/** Gitea `Badge`: `image_url` as stored. */
export const toApiBadge = (b: Models.Badge): Badge => ({ id: b.id, slug: b.slug, description: b.description, image_url: b.imageUrl });
