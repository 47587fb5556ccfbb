// GitHub's issue object (REST v3), as /search/issues lists issues and pull requests (`gh search issues|prs`), from
// the issue views of the /api/v1 services; links point at what this server serves.
import type { AuthorAssociation } from '../services/issue/authorAssociation.ts';
import type { IssueView } from '../services/issue/issue.ts';
import type { UserView } from '../services/user/viewColumns.ts';
import { isWorkInProgress } from '../services/issue/wip.ts';
import { toGithubOwner } from './convert.ts';
import { toGithubLabel } from './labels.ts';
import { nodeId } from './nodeId.ts';

const time = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** GitHub's issue object of an issue or pull request (a pull request's carries `pull_request` and `draft`). */
export function toGithubIssue(view: IssueView, association: AuthorAssociation, rootUrl: string): Record<string, unknown> {
  const { issue, repo, pull } = view;
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  const api = `${rootUrl}api/v3/repos/${path}`;
  const user = (u: UserView) => toGithubOwner(u, rootUrl);
  const milestone = view.milestone;
  return {
    id: issue.id,
    node_id: pull ? nodeId('PullRequest', pull.id) : nodeId('Issue', issue.id),
    number: issue.index,
    title: issue.title,
    body: issue.content || null,
    user: view.poster ? user(view.poster) : null,
    labels: view.labels.map((l) => toGithubLabel(l, repo, rootUrl)),
    state: issue.isClosed ? 'closed' : 'open',
    // Gitea records no reason: a closed issue was closed as completed.
    state_reason: issue.isClosed && !pull ? 'completed' : null,
    locked: issue.isLocked,
    assignee: view.assignees[0] ? user(view.assignees[0]) : null,
    assignees: view.assignees.map(user),
    milestone: milestone
      ? {
          id: milestone.id,
          node_id: nodeId('Milestone', milestone.id),
          number: milestone.id,
          title: milestone.name,
          description: milestone.content || null,
          state: milestone.isClosed ? 'closed' : 'open',
          due_on: time(milestone.deadlineAt),
        }
      : null,
    comments: issue.numComments,
    created_at: issue.createdAt.toISOString(),
    updated_at: issue.updatedAt.toISOString(),
    closed_at: issue.isClosed ? time(issue.closedAt) : null,
    author_association: association,
    html_url: `${rootUrl}${path}/${pull ? 'pulls' : 'issues'}/${issue.index}`,
    url: `${api}/issues/${issue.index}`,
    repository_url: api,
    ...(pull
      ? {
          draft: isWorkInProgress(issue.title),
          pull_request: {
            url: `${api}/pulls/${issue.index}`,
            html_url: `${rootUrl}${path}/pulls/${issue.index}`,
            diff_url: `${rootUrl}${path}/pulls/${issue.index}.diff`,
            patch_url: `${rootUrl}${path}/pulls/${issue.index}.patch`,
            merged_at: pull.hasMerged ? time(pull.mergedAt) : null,
          },
        }
      : {}),
  };
}
