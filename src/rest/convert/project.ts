import type { Models } from '../../db/client.ts';
import type { Project } from '../structs/project.ts';
import { apiTime } from './time.ts';

/** Gitea convert.ToAPIProject: zero ids and an unset close time are left out (omitempty). */
export function toApiProject(p: Models.Project): Project {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    ...(p.ownerId ? { owner_id: p.ownerId } : {}),
    ...(p.repoId ? { repo_id: p.repoId } : {}),
    creator_id: p.creatorId ?? 0,
    is_closed: p.isClosed,
    created_at: apiTime(p.createdAt),
    updated_at: apiTime(p.updatedAt),
    ...(p.isClosed && p.closedAt ? { closed_at: apiTime(p.closedAt) } : {}),
  };
}

/** A list of projects in Gitea's shape. */
export function toApiProjectList(projects: readonly Models.Project[]): Project[] {
  return projects.map(toApiProject);
}
