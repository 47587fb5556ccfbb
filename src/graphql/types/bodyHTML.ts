// Rendered markup where GitHub's graph has it: `bodyHTML` of issues, pull requests, comments, reviews and review
// comments, `descriptionHTML` of releases and repositories. Computed only when selected; the bodies a request asks
// for at one level of the query render in one batch (markupService.renderBodies: one query per kind of lookup,
// one git process per repository), from the rows' own columns.
import DataLoader from 'dataloader';
import * as markupService from '../../services/markup/markup.ts';
import { builder } from '../builder.ts';
import type { GraphQLContext } from '../context.ts';
import { IssueRef } from './issue.ts';
import { IssueCommentRef } from './issueComment.ts';
import { PullRequestRef } from './pullRequest.ts';
import { PullRequestReviewCommentRef, PullRequestReviewRef } from './pullRequestReview.ts';
import { ReleaseRef } from './release.ts';
import { RepositoryRef } from './repository.ts';

const loaders = new WeakMap<GraphQLContext, DataLoader<markupService.RepoText, string, string>>();

/** The request's body renderer: every text of a tick in one batch, each distinct text once. */
function renderBody(ctx: GraphQLContext, text: string, repoId: number): Promise<string> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((keys) => markupService.renderBodies(ctx.cx, keys), { cacheKeyFn: (k) => `${k.repoId}:${k.text}` });
    loaders.set(ctx, loader);
  }
  return loader.load({ text, repoId });
}

const BODY = 'The body rendered to HTML (as Gitea renders comments: references, mentions and emoji linked, sanitized).';
const IN_ISSUE = { content: true, issue: { select: { repoId: true } } } as const;

builder.prismaObjectFields(IssueRef, (t) => ({
  bodyHTML: t.field({
    type: 'HTML',
    description: BODY,
    select: { content: true, repoId: true },
    resolve: (i, _a, ctx) => renderBody(ctx, i.content, i.repoId),
  }),
}));

builder.prismaObjectFields(PullRequestRef, (t) => ({
  bodyHTML: t.field({
    type: 'HTML',
    description: BODY,
    select: { issue: { select: { content: true, repoId: true } } },
    resolve: (p, _a, ctx) => renderBody(ctx, p.issue.content, p.issue.repoId),
  }),
}));

// Plain comments and review line comments (Comment rows) and reviews: a body and their issue's repository.
for (const ref of [IssueCommentRef, PullRequestReviewCommentRef, PullRequestReviewRef]) {
  builder.prismaObjectFields(ref, (t) => ({
    bodyHTML: t.field({
      type: 'HTML',
      description: BODY,
      select: IN_ISSUE,
      resolve: (c, _a, ctx) => renderBody(ctx, c.content, c.issue.repoId),
    }),
  }));
}

builder.prismaObjectFields(ReleaseRef, (t) => ({
  descriptionHTML: t.field({
    type: 'HTML',
    nullable: true,
    description: 'The description of this release rendered to HTML; null when it has none.',
    select: { note: true, repoId: true },
    resolve: (r, _a, ctx) => (r.note ? renderBody(ctx, r.note, r.repoId) : null),
  }),
}));

builder.prismaObjectFields(RepositoryRef, (t) => ({
  descriptionHTML: t.field({
    type: 'HTML',
    description: 'The description of the repository rendered to HTML (`<div>…</div>`: its URLs linked, emoji shortcodes replaced).',
    select: { description: true },
    resolve: (r, _a, ctx) => markupService.renderDescriptions(ctx.cx, [r.description])[0] ?? '<div></div>',
  }),
}));
