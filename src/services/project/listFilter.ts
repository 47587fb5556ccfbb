// GitHub's filters of a project list (GraphQL Repository.projects, Organization.projects): states and a name
// search, as a where over Gitea's projects; the caller applies the projects' read policy.
import type { Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import type { ServiceContext } from '../context.ts';

export interface ProjectListFilter {
  /** OPEN, CLOSED or both (none: both). */
  states?: readonly ('OPEN' | 'CLOSED')[];
  /** Part of the name. */
  search?: string;
}

/** The projects the filters let through. */
export function projectListWhere(cx: ServiceContext, f: ProjectListFilter): Models.Prisma.ProjectWhereInput {
  const states = f.states ?? [];
  return {
    AND: [
      states.length === 1 ? { isClosed: states[0] === 'CLOSED' } : {},
      f.search ? { title: containsInsensitive(cx.config.dbProvider, f.search) } : {},
    ],
  };
}
