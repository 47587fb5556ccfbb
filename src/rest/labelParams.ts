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
