import type { Models } from '../../db/client.ts';
import { containsInsensitive, NO_ROWS } from '../../db/filters.ts';
import { ValidationError } from '../../errors.ts';
import { requireTokenScope } from '../access/guards.ts';
import type { ServiceContext } from '../context.ts';
import { booleanOf, invalidQualifierValue, loginOf, qualifiedTerms, addInFields, sortOf, unsupportedQualifier } from '../searchQuery.ts';
import { skipTake, type ListOptions, type ListWindow, type Page } from '../paging.ts';
import { collaborativeWhere } from './access.ts';
import { languageNamed } from './languageDetect.ts';
import { repoReadWhere } from './visibility.ts';
import { loadApiRepos, withPermissions, type RepoWithPermission } from './repoRows.ts';

type Where = Models.Prisma.RepositoryWhereInput;
type OrderBy = Models.Prisma.RepositoryOrderByWithRelationInput;

/** GET /repos/search options (Gitea SearchRepoOptions as the API fills them). */
export interface SearchReposInput {
  q?: string;
  topic?: boolean;
  includeDesc?: boolean;
  uid?: number;
  priorityOwnerId?: number;
  teamId?: number;
  starredBy?: number;
  /** Include private repositories the viewer can access (default true when signed in). */
  private?: boolean;
  isPrivate?: boolean;
  template?: boolean;
  archived?: boolean;
  mode?: string;
  exclusive?: boolean;
  sort?: string;
  order?: string;
}

const SORT_FIELDS: Record<string, keyof OrderBy> = {
  alpha: 'lowerName',
  created: 'createdAt',
  updated: 'updatedAt',
  size: 'size',
  git_size: 'gitSize',
  lfs_size: 'lfsSize',
  stars: 'numStars',
  forks: 'numForks',
  id: 'id',
};

function orderOf(input: SearchReposInput): OrderBy[] {
  if (!input.sort) return [{ lowerName: 'asc' }, { id: 'asc' }];
  const order = input.order || 'asc';
  if (order !== 'asc' && order !== 'desc') throw new ValidationError(`Invalid sort order: "${order}"`);
  const field = SORT_FIELDS[input.sort];
  if (!field) throw new ValidationError(`Invalid sort mode: "${input.sort}"`);
  return field === 'id' ? [{ id: order }] : [{ [field]: order }, { id: 'asc' }];
}

function modeWhere(mode: string | undefined): Where {
  switch (mode ?? '') {
    case '':
      return {};
    case 'source':
      return { isFork: false, isMirror: false };
    case 'fork':
      return { isFork: true };
    case 'mirror':
      return { isMirror: true };
    case 'collaborative':
      return { isMirror: false };
    default:
      throw new ValidationError(`Invalid search mode: "${mode}"`);
  }
}

function keywordWhere(cx: ServiceContext, input: SearchReposInput): Where {
  const q = (input.q ?? '').trim();
  if (!q) return {};
  const words = q.split(',').map((w) => w.toLowerCase());
  const topics: Where = input.topic
    ? { repoTopics: { some: { topic: { name: { in: words } } } } }
    : { repoTopics: { some: { topic: { OR: words.map((w) => ({ name: { contains: w } })) } } } };
  if (input.topic) return topics;
  const likes: Where[] = [];
  for (const w of words) {
    likes.push({ lowerName: { contains: w } });
    if (input.includeDesc) likes.push({ description: containsInsensitive(cx.config.dbProvider, w) });
  }
  const parts = q.split('/');
  if (!input.teamId && parts.length === 2) {
    likes.push({
      ownerName: containsInsensitive(cx.config.dbProvider, parts[0] ?? ''),
      lowerName: { contains: (parts[1] ?? '').toLowerCase() },
    });
  }
  return { OR: [topics, ...likes] };
}

function ownerWhere(input: SearchReposInput): Where {
  if (!input.uid || input.uid <= 0) return {};
  const uid = input.uid;
  if (input.mode === 'collaborative') return collaborativeWhere(uid);
  if (input.exclusive) return { ownerId: uid };
  return { OR: [{ ownerId: uid }, collaborativeWhere(uid)] };
}

/**
 * GET /repos/search (Gitea Search): keyword over names (and topics, descriptions), owner/collaboration,
 * team, stars, privacy, template, archived, mode filters; sort alpha/created/updated/size/git_size/lfs_size/
 * stars/forks/id; `priority_owner_id` lists that owner's repositories first (then by owner id, as Gitea's CASE).
 * Only what the viewer may see.
 * @throws ValidationError (invalid mode, sort or order)
 */
export async function searchRepos(
  cx: ServiceContext,
  input: SearchReposInput,
  opts: ListOptions | ListWindow,
): Promise<Page<RepoWithPermission>> {
  requireTokenScope(cx, 'repository', 'read');
  const orderBy = orderOf(input);
  const includePrivate = cx.viewer !== null && input.private !== false;
  const where: Where = {
    AND: [
      repoReadWhere(cx),
      includePrivate ? {} : { isPrivate: false },
      input.isPrivate === undefined ? {} : { isPrivate: input.isPrivate },
      input.template === undefined ? {} : { isTemplate: input.template },
      input.archived === undefined ? {} : { isArchived: input.archived },
      modeWhere(input.mode),
      ownerWhere(input),
      input.teamId ? { teamRepos: { some: { teamId: input.teamId } } } : {},
      input.starredBy ? { stars: { some: { userId: input.starredBy } } } : {},
      keywordWhere(cx, input),
    ],
  };
  const win = skipTake(opts);
  const pid = input.priorityOwnerId && input.priorityOwnerId > 0 ? input.priorityOwnerId : null;
  if (!pid) {
    const [rows, total] = await Promise.all([loadApiRepos(cx, { where, orderBy, ...win }), cx.db.repository.count({ where })]);
    return { items: await withPermissions(cx, rows), total };
  }
  const first: Where = { AND: [where, { ownerId: pid }] };
  const rest: Where = { AND: [where, { ownerId: { not: pid } }] };
  const [firstCount, restCount] = await Promise.all([cx.db.repository.count({ where: first }), cx.db.repository.count({ where: rest })]);
  const fromFirst = Math.max(0, Math.min(win.take, firstCount - win.skip));
  const [a, b] = await Promise.all([
    fromFirst > 0 ? loadApiRepos(cx, { where: first, orderBy, skip: win.skip, take: fromFirst }) : [],
    win.take - fromFirst > 0
      ? loadApiRepos(cx, {
          where: rest,
          orderBy: [{ ownerId: 'asc' }, ...orderBy],
          skip: Math.max(0, win.skip - firstCount),
          take: win.take - fromFirst,
        })
      : [],
  ]);
  return { items: await withPermissions(cx, [...a, ...b]), total: firstCount + restCount };
}

/** GitHub's qualifiers of repository searches (those not handled by repositorySearch are refused by name). */
const GITHUB_REPO_QUALIFIERS = new Set([
  'in', 'size', 'followers', 'forks', 'stars', 'created', 'pushed', 'language', 'topic', 'topics', 'license', 'is',
  'mirror', 'template', 'archived', 'fork', 'user', 'org', 'repo', 'good-first-issues', 'help-wanted-issues', 'sort',
]); // prettier-ignore

const GITHUB_REPO_SORT = ['stars', 'forks', 'updated', 'created'] as const;
const GITHUB_REPO_SORT_COLUMN = { stars: 'numStars', forks: 'numForks', updated: 'updatedAt', created: 'createdAt' } as const;

/** A repository search of GitHub's syntax: the rows' filter (with the read policy) and their order. */
export interface RepositorySearch {
  where: Where;
  orderBy: OrderBy[];
}

/**
 * The repositories `query` (GitHub's syntax) asks for, through the read policy of repositories: `user:`/`org:`
 * (the owner, `@me` the viewer) and `repo:owner/name` (several widen the search), `is:` public, private, internal (none), archived,
 * mirror, template, fork; `archived:`, `mirror:`, `template:` true or false; `fork:` true (forks too), only or false
 * (the default: no forks, as GitHub); `topic:`; `language:` (the primary language); `in:` name or description; `sort:` stars, forks, updated or created
 * (`-asc`/`-desc`; by name otherwise). Words match names and descriptions.
 * @throws InvalidArgumentError naming an unsupported qualifier or a value a qualifier does not take;
 * PermissionDeniedError for a token without read:repository
 */
export function repositorySearch(cx: ServiceContext, query: string): RepositorySearch {
  requireTokenScope(cx, 'repository', 'read');
  const and: Where[] = [repoReadWhere(cx)];
  const scopes: Where[] = [];
  const words: string[] = [];
  const fields = new Set<'name' | 'description'>();
  let forks: 'false' | 'true' | 'only' = 'false';
  let orderBy: OrderBy[] = [{ lowerName: 'asc' }, { id: 'asc' }];
  for (const term of qualifiedTerms(query, GITHUB_REPO_QUALIFIERS, words)) {
    switch (term.qualifier) {
      case 'user':
      case 'org':
        scopes.push({ owner: { lowerName: loginOf(cx, term).toLowerCase() } });
        break;
      case 'repo': {
        const [owner, name, ...rest] = term.value.split('/');
        if (!owner || !name || rest.length) throw invalidQualifierValue(term, 'owner/name');
        scopes.push({ lowerName: name.toLowerCase(), owner: { lowerName: owner.toLowerCase() } });
        break;
      }
      case 'is': {
        const v = term.value.toLowerCase();
        if (v === 'public' || v === 'private') and.push({ isPrivate: v === 'private' });
        else if (v === 'archived') and.push({ isArchived: true });
        else if (v === 'mirror') and.push({ isMirror: true });
        else if (v === 'template') and.push({ isTemplate: true });
        else if (v === 'fork') forks = 'only';
        // GitHub's enterprise-wide visibility: no Gitea repository is internal.
        else if (v === 'internal') and.push(NO_ROWS);
        else throw invalidQualifierValue(term, 'public, private, internal, archived, mirror, template or fork');
        break;
      }
      case 'archived':
        and.push({ isArchived: booleanOf(term) });
        break;
      case 'mirror':
        and.push({ isMirror: booleanOf(term) });
        break;
      case 'template':
        and.push({ isTemplate: booleanOf(term) });
        break;
      case 'fork': {
        const v = term.value.toLowerCase();
        if (v !== 'true' && v !== 'false' && v !== 'only') throw invalidQualifierValue(term, 'true, only or false');
        forks = v;
        break;
      }
      case 'topic':
        and.push({ repoTopics: { some: { topic: { name: term.value.toLowerCase() } } } });
        break;
      case 'language':
        // The primary language, as last computed (GitHub matches the repository's language).
        and.push({ languageStats: { some: { isPrimary: true, language: languageNamed(term.value) } } });
        break;
      case 'in':
        addInFields(term, ['name', 'description'] as const, fields);
        break;
      case 'sort': {
        const { field, direction } = sortOf(term, GITHUB_REPO_SORT);
        orderBy = [{ [GITHUB_REPO_SORT_COLUMN[field]]: direction }, { id: direction }];
        break;
      }
      default:
        throw unsupportedQualifier(term);
    }
  }
  if (forks !== 'true') and.push({ isFork: forks === 'only' });
  if (scopes.length) and.push({ OR: scopes });
  const inFields = fields.size ? fields : new Set(['name', 'description']);
  for (const w of words) {
    and.push({
      OR: [
        ...(inFields.has('name') ? [{ lowerName: { contains: w.toLowerCase() } }] : []),
        ...(inFields.has('description') ? [{ description: containsInsensitive(cx.config.dbProvider, w) }] : []),
      ],
    });
  }
  return { where: { AND: and }, orderBy };
}

/**
 * A page of the repositories `query` (GitHub's syntax) finds, with what their JSON shows, and how many it finds
 * (GitHub's REST /search/repositories).
 * @throws InvalidArgumentError, PermissionDeniedError (as repositorySearch)
 */
export async function searchRepositoryPage(cx: ServiceContext, query: string, page: ListOptions): Promise<Page<RepoWithPermission>> {
  const { where, orderBy } = repositorySearch(cx, query);
  const [rows, total] = await Promise.all([loadApiRepos(cx, { where, orderBy, ...skipTake(page) }), cx.db.repository.count({ where })]);
  return { items: await withPermissions(cx, rows), total };
}
