import type { TagProtectionInput, TagProtectionView } from '../../services/protection/tagManage.ts';
import type { EditTagProtectionOption, TagProtection } from '../structs/tagProtection.ts';
import { apiTime } from './time.ts';

/** Gitea ToTagProtection: the allowlists by name. */
export function toApiTagProtection(v: TagProtectionView): TagProtection {
  return {
    id: v.row.id,
    name_pattern: v.row.namePattern,
    whitelist_usernames: v.userNames,
    whitelist_teams: v.teamNames,
    created_at: apiTime(v.row.createdAt),
    updated_at: apiTime(v.row.updatedAt),
  };
}

/** The service input of a create or edit body (null and absent fields change nothing). */
export function tagProtectionInput(b: EditTagProtectionOption): TagProtectionInput {
  return {
    ...(b.name_pattern != null ? { namePattern: b.name_pattern } : {}),
    ...(b.whitelist_usernames != null ? { whitelistUsernames: b.whitelist_usernames } : {}),
    ...(b.whitelist_teams != null ? { whitelistTeams: b.whitelist_teams } : {}),
  };
}
