import type { ListLabelsInput } from '../services/label/label.ts';
import { listOptions } from './pagination.ts';

/** Gitea's label lists page only when `page` is a positive integer; without it they return every label. */
export function labelPage(query: Record<string, unknown>): ListLabelsInput['page'] {
  const raw = Array.isArray(query.page) ? query.page[0] : query.page;
  const page = typeof raw === 'string' && /^[+-]?\d+$/.test(raw) ? Number(raw) : 0;
  return page > 0 ? listOptions(query) : 'all';
}

/** Path ids Gitea parses with ParseInt: anything else matches no label. */
export const labelId = (raw: string | undefined): number => (raw && /^[+-]?\d{1,10}$/.test(raw) ? Number(raw) : 0);

/** A CreateLabelOption / EditLabelOption body as the label service's input (org and repository labels alike). */
export function labelFields<
  T extends {
    name?: string | undefined;
    color?: string | undefined;
    description?: string | undefined;
    exclusive?: boolean | undefined;
    is_archived?: boolean | undefined;
  },
>(body: T): { name: T['name']; color: T['color']; description: T['description']; exclusive: T['exclusive']; isArchived: T['is_archived'] } {
  return { name: body.name, color: body.color, description: body.description, exclusive: body.exclusive, isArchived: body.is_archived };
}
