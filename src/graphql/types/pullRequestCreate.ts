// GitHub's createPullRequest, through the pull request service (POST /repos/{o}/{r}/pulls).
import { ValidationError } from '../../errors.ts';
import * as createService from '../../services/pull/create.ts';
import { builder } from '../builder.ts';
import { repoRefOf } from '../idInputs.ts';
import { opt } from '../ids.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { PullRequestRef } from './pullRequest.ts';

builder.relayMutationField(
  'createPullRequest',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({ description: 'The base repository (or give repositoryOwner and repositoryName).' }),
      repositoryOwner: t.string(),
      repositoryName: t.string(),
      baseRefName: t.string({ required: true, description: 'The branch to merge into.' }),
      headRefName: t.string({ required: true, description: 'The branch with the changes: `branch`, or `owner:branch` for a fork.' }),
      headRepositoryId: t.globalID({ description: 'The repository of the head branch (the base, one of its forks or its parent).' }),
      title: t.string({ required: true }),
      body: t.string(),
      assigneeLogins: t.stringList(),
      labelIds: t.intList({ description: 'Label REST ids.' }),
      milestoneId: t.int(),
      dueOn: t.field({ type: 'DateTime' }),
      maintainerCanModify: t.boolean(),
      draft: t.boolean({
        description: "Open it as a draft: Gitea's work in progress, a title prefixed `WIP: ` (unless it has a WIP prefix already).",
      }),
    }),
  },
  {
    description: 'Open a pull request (as POST /api/v1/repos/{o}/{r}/pulls).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const ref = input.repositoryId
        ? await repoRefOf(ctx, input.repositoryId)
        : { owner: input.repositoryOwner ?? '', repo: input.repositoryName ?? '' };
      // GitHub's headRepositoryId names the head repository (the base, one of its forks or its parent): Gitea's owner/repo:branch.
      const headRepo = input.headRepositoryId ? await repoRefOf(ctx, input.headRepositoryId) : null;
      if (headRepo && input.headRefName.includes(':'))
        throw new ValidationError('headRefName: a branch name when headRepositoryId is given', { field: 'headRefName' });
      const view = await createService.createPullRequest(ctx.cx, ref, {
        head: headRepo ? `${headRepo.owner}/${headRepo.repo}:${input.headRefName}` : input.headRefName,
        base: input.baseRefName,
        title: input.title,
        draft: opt(input.draft),
        body: opt(input.body),
        assignees: opt(input.assigneeLogins),
        labels: opt(input.labelIds),
        milestone: opt(input.milestoneId),
        dueDate: opt(input.dueOn),
        allowMaintainerEdit: opt(input.maintainerCanModify),
      });
      return { pullRequest: view.pull };
    },
  },
  { outputFields: (t) => ({ pullRequest: t.field({ type: PullRequestRef, resolve: (p) => p.pullRequest }) }) },
);
