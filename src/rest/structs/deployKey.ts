import { z } from 'zod';
import { qInt, qString } from '../params.ts';
import { zBool } from '../validation.ts';
import { Repository } from './repo.ts';

/** Gitea `DeployKey` (modules/structs/repo_key.go), fields in Gitea's order; `repository` omitted when empty. */
export const DeployKey = z.object({
  id: z.number().int(),
  key_id: z.number().int(),
  key: z.string(),
  url: z.string(),
  title: z.string(),
  fingerprint: z.string(),
  created_at: z.string(),
  read_only: z.boolean(),
  repository: Repository.optional(),
});
/** A Gitea DeployKey as sent on the wire. */
export type DeployKey = z.infer<typeof DeployKey>;

/** Gitea `CreateKeyOption`: title and key required (`binding:"Required"`); read_only defaults to false. */
export const CreateKeyOption = z.object({
  title: z.string().min(1),
  key: z.string().min(1),
  read_only: zBool.nullish(),
});

/** Query of GET /repos/{o}/{r}/keys: filters by public key id and fingerprint. */
export const ListDeployKeysQuery = z.object({
  key_id: qInt('the key_id to search for'),
  fingerprint: qString('fingerprint of the key'),
});
