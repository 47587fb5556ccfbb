import type { Models } from '../../db/client.ts';
import type { Milestone } from '../structs/issue.ts';
import { toApiMilestone } from './issue.ts';

/** A list of milestones in Gitea's shape. */
export function toApiMilestoneList(milestones: readonly Models.Milestone[]): Milestone[] {
  return milestones.map(toApiMilestone);
}
