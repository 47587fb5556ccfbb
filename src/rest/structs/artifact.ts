import { z } from 'zod';

/** The run of an artifact as Gitea's ToActionArtifact fills it: only id, repository and head sha. */
export const ActionArtifactWorkflowRun = z.object({
  id: z.number().int(),
  repository_id: z.number().int(),
  head_sha: z.string(),
});

/** Gitea `ActionArtifact` (modules/structs/repo_actions.go, convert.ToActionArtifact). */
export const ActionArtifact = z.object({
  id: z.number().int(),
  name: z.string(),
  size_in_bytes: z.number().int(),
  url: z.string(),
  archive_download_url: z.string(),
  expired: z.boolean(),
  workflow_run: ActionArtifactWorkflowRun,
  created_at: z.string(),
  updated_at: z.string(),
  expires_at: z.string(),
});
export type ActionArtifact = z.infer<typeof ActionArtifact>;

/** Gitea `ActionArtifactsResponse`. */
export const ActionArtifactsResponse = z.object({ artifacts: z.array(ActionArtifact), total_count: z.number().int() });
