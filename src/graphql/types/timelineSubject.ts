// The subject of milestone and title events as GitHub types it (MilestoneItem, RenamedTitleSubject): the issue, or
// the pull request when the issue is one. Declared apart from the events (timelineEvents.ts), which pullRequest.ts
// builds on: these unions need both the Issue and the PullRequest types.
import type { Models } from '../../db/client.ts';
import { builder } from '../builder.ts';
import { inherits } from '../policy.ts';
import { DemilestonedEventRef, MilestonedEventRef, RenamedTitleEventRef } from './timelineEvents.ts';
import { IssueRef } from './issue.ts';
import { PullRequestRef } from './pullRequest.ts';

const issueOrPullUnion = (name: string, description: string) =>
  builder.unionType(name, {
    description,
    types: [IssueRef, PullRequestRef],
    resolveType: (o: Models.Issue | Models.PullRequest) => ('baseRepoId' in o ? PullRequestRef : IssueRef),
  });

const MilestoneItemUnion = issueOrPullUnion('MilestoneItem', 'Types that can be inside a Milestone.');
const RenamedTitleSubjectUnion = issueOrPullUnion('RenamedTitleSubject', 'An object which has a renamable title.');

for (const [ref, union] of [
  [MilestonedEventRef, MilestoneItemUnion],
  [DemilestonedEventRef, MilestoneItemUnion],
  [RenamedTitleEventRef, RenamedTitleSubjectUnion],
] as const) {
  builder.prismaObjectFields(ref, (t) => ({
    subject: t.field({
      type: union,
      description: 'The issue, or the pull request when the issue is one.',
      ...inherits('a readable event implies its readable issue (and the pull request that issue is)'),
      select: { issue: { include: { pullRequest: true } } },
      resolve: (c) => c.issue.pullRequest ?? c.issue,
    }),
  }));
}
