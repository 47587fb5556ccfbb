import type { Models } from '../../db/client.ts';
import { issueReadWhere } from '../../services/issue/visibility.ts';
import { builder } from '../builder.ts';
import { filteredBy } from '../policy.ts';
import { IssueRef } from './issue.ts';
import { PullRequestRef } from './pullRequest.ts';
import { RepositoryRef } from './repository.ts';

/** GitHub's IssueOrPullRequest: issues and pull requests share one numbering per repository. */
const IssueOrPullRequestUnion = builder.unionType('IssueOrPullRequest', {
  description: 'An issue or a pull request.',
  types: [IssueRef, PullRequestRef],
  // A PullRequest row has a head branch; an Issue row does not.
  resolveType: (v) => ('headBranch' in v ? PullRequestRef : IssueRef),
});

builder.prismaObjectFields(RepositoryRef, (t) => ({
  issueOrPullRequest: t.field({
    type: IssueOrPullRequestUnion,
    nullable: true,
    description:
      'The issue or pull request with this number (null when there is none, or when the viewer cannot read its unit: issues for an issue, pull requests for a pull request).',
    // issueReadWhere holds both halves: an issue by the issues unit, a pull request (its issue row) by the pull requests unit.
    ...filteredBy('issueReadWhere'),
    args: { number: t.arg.int({ required: true }) },
    resolve: async (repo, args, ctx): Promise<Models.Issue | Models.PullRequest | null> => {
      const issue = await ctx.cx.db.issue.findFirst({ where: { repoId: repo.id, index: args.number, AND: [issueReadWhere(ctx.cx)] } });
      if (!issue?.isPull) return issue;
      return ctx.cx.db.pullRequest.findUnique({ where: { issueId: issue.id } });
    },
  }),
}));
