import type { Models } from '../../db/client.ts';
import type { Organization } from '../structs/org.ts';
import { avatarUrl } from '../../services/user/avatar.ts';
import type { ConvertOptions } from './user.ts';

/** Gitea convert.ToOrganization. */
export function toApiOrganization(org: Models.User, opts: ConvertOptions): Organization {
  return {
    id: org.id,
    name: org.name,
    full_name: org.fullName,
    email: org.email,
    avatar_url: avatarUrl(org, opts.rootUrl),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: org.visibility.toLowerCase() as Organization['visibility'],
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
    username: org.name,
  };
}
