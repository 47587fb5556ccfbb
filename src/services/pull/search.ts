// GitHub's issue search (GraphQL `search(type: ISSUE)`): issues and pull requests across every repository the
// viewer can read, filtered by GitHub's qualifiers, through the one read policy of issues (issueReadWhere).
import type { Models } from '../../db/client.ts';
import { containsInsensitive } from '../../db/filters.ts';
import { requireTokenScope } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { reviewReadWhere, reviewRequestReadWhere } from './visibility.ts';
import { teamMemberReadWhere } from '../org/visibility.ts';
import {
  booleanOf,
  invalidQualifierValue,
  loginOf,
  qualifiedTerms,
  addInFields,
  sortOf,
  unsupportedQualifier,
  type SearchTerm,
} from '../searchQuery.ts';
import { authorAssociationLoader, authorAssociationOf, type AuthorAssociation } from '../issue/authorAssociation.ts';
import { loadIssueViews, type IssueView } from '../issue/issue.ts';
import { issueReadWhere } from '../issue/visibility.ts';
import { skipTake, type ListOptions, type Page } from '../paging.ts';
import { workInProgressWhere } from '../issue/wip.ts';

type Where = Models.Prisma.IssueWhereInput;
type OrderBy = Models.Prisma.IssueOrderByWithRelationInput;

/** GitHub's qualifiers of issue and pull request searches (those not in SUPPORTED are refused by name). */
const GITHUB_QUALIFIERS = new Set([
  'type', 'is', 'in', 'author', 'assignee', 'mentions', 'commenter', 'involves', 'team', 'review-requested',
  'team-review-requested', 'user-review-requested', 'reviewed-by', 'label', 'milestone', 'project', 'head', 'base',
  'state', 'status', 'language', 'comments', 'interactions', 'reactions', 'draft', 'review', 'created', 'updated',
  'closed', 'merged', 'archived', 'no', 'linked', 'user', 'org', 'repo', 'sort', 'reason',
]); // prettier-ignore

/** An issue search: the rows' filter (with the read policy) and their order. */
export interface IssueSearch {
  where: Where;
  orderBy: OrderBy[];
}

const byLogin = (login: string) => ({ lowerName: login.toLowerCase() });
const SUBMITTED: Models.Prisma.ReviewWhereInput = { type: { in: ['APPROVE', 'REJECT', 'COMMENT'] } };

/** The filter of one user qualifier (`@me` is the viewer). */
function userWhere(cx: ServiceContext, term: SearchTerm): Where {
  const user = byLogin(loginOf(cx, term));
  switch (term.qualifier) {
    case 'author':
      return { poster: user };
    case 'assignee':
      return { assignees: { some: { assignee: user } } };
    case 'mentions':
      return { issueUsers: { some: { isMentioned: true, user } } };
    case 'commenter':
      return { comments: { some: { type: 'COMMENT', poster: user } } };
    case 'involves':
      return {
        OR: [
          { poster: user },
          { assignees: { some: { assignee: user } } },
          { issueUsers: { some: { isMentioned: true, user } } },
          { comments: { some: { type: 'COMMENT', poster: user } } },
        ],
      };
    case 'review-requested':
      // Requests of the user, or of a team of theirs the viewer may see with its members.
      return {
        isPull: true,
        reviews: {
          some: {
            AND: [
              reviewRequestReadWhere(cx),
              { OR: [{ reviewer: user }, { reviewerTeam: { members: { some: { AND: [{ user }, teamMemberReadWhere(cx)] } } } }] },
            ],
          },
        },
      };
    default: // reviewed-by
      return { isPull: true, reviews: { some: { AND: [reviewReadWhere(cx), SUBMITTED, { reviewer: user }] } } };
  }
}

/** The filter of an `is:` value. */
function isWhere(cx: ServiceContext, term: SearchTerm): Where {
  switch (term.value.toLowerCase()) {
    case 'pr':
    case 'pull-request':
      return { isPull: true };
    case 'issue':
      return { isPull: false };
    case 'open':
      return { isClosed: false };
    case 'closed':
      return { isClosed: true };
    case 'merged':
      return { isPull: true, pullRequest: { is: { hasMerged: true } } };
    case 'unmerged':
      return { isPull: true, pullRequest: { is: { hasMerged: false } } };
    case 'draft':
      return { isPull: true, ...workInProgressWhere(cx.config.dbProvider) };
    case 'locked':
      return { isLocked: true };
    case 'unlocked':
      return { isLocked: false };
    case 'public':
      return { repo: { isPrivate: false } };
    case 'private':
      return { repo: { isPrivate: true } };
    default:
      throw invalidQualifierValue(term, 'pr, issue, open, closed, merged, unmerged, draft, locked, unlocked, public or private');
  }
}

/** The filter of a `repo:owner/name`. */
function repoWhere(term: SearchTerm): Where {
  const [owner, name, ...rest] = term.value.split('/');
  if (!owner || !name || rest.length) throw invalidQualifierValue(term, 'owner/name');
  return { repo: { lowerName: name.toLowerCase(), owner: byLogin(owner) } };
}

/** Free text: every word or phrase in the title or the body (or where `in:` says). */
function textWhere(cx: ServiceContext, words: readonly string[], fields: ReadonlySet<'title' | 'body'>): Where[] {
  const provider = cx.config.dbProvider;
  return words.map((w) => ({
    OR: [
      ...(fields.has('title') ? [{ title: containsInsensitive(provider, w) }] : []),
      ...(fields.has('body') ? [{ content: containsInsensitive(provider, w) }] : []),
    ],
  }));
}

const SORT_FIELDS = ['created', 'updated', 'comments'] as const;
const SORT_COLUMN = { created: 'createdAt', updated: 'updatedAt', comments: 'numComments' } as const;

/**
 * The search of issues and pull requests that `query` (GitHub's syntax) asks for. Qualifiers: `repo:owner/name`,
 * `org:`/`user:` (the owner; several repo/org/user terms widen the search), `is:` pr, issue, open, closed, merged,
 * unmerged, draft, locked, unlocked, public, private; `type:` pr or issue; `state:` open or closed; `author:`,
 * `assignee:`, `mentions:`, `commenter:`, `involves:`, `review-requested:`, `reviewed-by:` (a login or `@me`);
 * `label:` (several terms: all of them; `label:a,b`: either), `milestone:`, `no:` label, assignee or milestone;
 * `base:`/`head:` branches; `draft:` and `archived:` true or false; `in:` title or body; `sort:` created, updated or
 * comments, `-asc` or `-desc` (newest first by default). Words and "phrases" are searched in titles and bodies.
 * Only what the viewer may read is found or counted. @throws InvalidArgumentError naming a qualifier GitHub has that
 * is not supported here, or a value a qualifier does not take; PermissionDeniedError for a token without read:issue
 */
export function issueSearch(cx: ServiceContext, query: string): IssueSearch {
  requireTokenScope(cx, 'issue', 'read');
  const and: Where[] = [issueReadWhere(cx)];
  const scopes: Where[] = [];
  const words: string[] = [];
  const fields = new Set<'title' | 'body'>();
  let orderBy: OrderBy[] = [{ createdAt: 'desc' }, { id: 'desc' }];
  for (const term of qualifiedTerms(query, GITHUB_QUALIFIERS, words)) {
    switch (term.qualifier) {
      case 'repo':
        scopes.push(repoWhere(term));
        break;
      case 'org':
      case 'user':
        scopes.push({ repo: { owner: byLogin(loginOf(cx, term)) } });
        break;
      case 'is':
        and.push(isWhere(cx, term));
        break;
      case 'type': {
        const v = term.value.toLowerCase();
        if (v !== 'pr' && v !== 'issue') throw invalidQualifierValue(term, 'pr or issue');
        and.push({ isPull: v === 'pr' });
        break;
      }
      case 'state': {
        const v = term.value.toLowerCase();
        if (v !== 'open' && v !== 'closed') throw invalidQualifierValue(term, 'open or closed');
        and.push({ isClosed: v === 'closed' });
        break;
      }
      case 'author':
      case 'assignee':
      case 'mentions':
      case 'commenter':
      case 'involves':
      case 'review-requested':
      case 'reviewed-by':
        and.push(userWhere(cx, term));
        break;
      case 'label': {
        const names = term.value.split(',').filter(Boolean);
        if (!names.length) throw invalidQualifierValue(term, 'a label name, or names separated by commas');
        and.push({ OR: names.map((name) => ({ labels: { some: { label: { name } } } })) });
        break;
      }
      case 'milestone':
        and.push({ milestone: { name: term.value } });
        break;
      case 'no': {
        const v = term.value.toLowerCase();
        if (v === 'label') and.push({ labels: { none: {} } });
        else if (v === 'assignee') and.push({ assignees: { none: {} } });
        else if (v === 'milestone') and.push({ milestoneId: null });
        else throw invalidQualifierValue(term, 'label, assignee or milestone');
        break;
      }
      case 'base':
        and.push({ isPull: true, pullRequest: { is: { baseBranch: term.value } } });
        break;
      case 'head':
        and.push({ isPull: true, pullRequest: { is: { headBranch: term.value } } });
        break;
      case 'draft': {
        const wip = workInProgressWhere(cx.config.dbProvider);
        and.push({ isPull: true, ...(booleanOf(term) ? wip : { NOT: wip }) });
        break;
      }
      case 'archived':
        and.push({ repo: { isArchived: booleanOf(term) } });
        break;
      case 'in':
        addInFields(term, ['title', 'body'] as const, fields);
        break;
      case 'sort': {
        const { field, direction } = sortOf(term, SORT_FIELDS);
        orderBy = [{ [SORT_COLUMN[field]]: direction }, { id: direction }];
        break;
      }
      default:
        throw unsupportedQualifier(term);
    }
  }
  if (scopes.length) and.push({ OR: scopes });
  and.push(...textWhere(cx, words, fields.size ? fields : new Set(['title', 'body'])));
  return { where: { AND: and }, orderBy };
}

/** An issue or pull request a search found, with how its author stands to its repository. */
export interface FoundIssue {
  view: IssueView;
  association: AuthorAssociation;
}

/**
 * A page of the issues and pull requests `query` (GitHub's syntax) finds, with what their JSON shows, and how many
 * it finds (GitHub's REST /search/issues).
 * @throws InvalidArgumentError, PermissionDeniedError (as issueSearch)
 */
export async function searchIssuePage(cx: ServiceContext, query: string, page: ListOptions): Promise<Page<FoundIssue>> {
  const { where, orderBy } = issueSearch(cx, query);
  const [rows, total] = await Promise.all([cx.db.issue.findMany({ where, orderBy, ...skipTake(page) }), cx.db.issue.count({ where })]);
  const loader = authorAssociationLoader(cx);
  const [views, associations] = await Promise.all([
    loadIssueViews(cx.db, rows),
    Promise.all(
      rows.map((r) => authorAssociationOf(loader, { issueId: r.id, posterId: r.posterId, originalAuthorId: r.originalAuthorId })),
    ),
  ]);
  return { items: views.map((view, i) => ({ view, association: associations[i] ?? 'NONE' })), total };
}
