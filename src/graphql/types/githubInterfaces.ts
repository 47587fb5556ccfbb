// GitHub's interfaces over what several of our types share (issue #32): Assignable, Closable, Labelable, Lockable,
// Reactable, Starrable, Subscribable and ProjectOwner. Each declares the fields of GitHub's that every implementer
// answers the same way; the fields GitHub also lists but that our types still give different connection types
// (assignees, labels, reactions, stargazers, projects) stay on the implementers until those connections are shared.
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import type { GitObjectView } from '../../services/repo/gitObject.ts';
import * as lockService from '../../services/issue/lock.ts';
import * as starService from '../../services/watch/star.ts';
import { builder } from '../builder.ts';

type IssueLike = Models.Issue | Models.PullRequest;

/** Issue rows (pull requests' issue rows included, as the payloads always returned them) and pull request rows. */
const issueOrPull = (o: IssueLike): 'Issue' | 'PullRequest' => ('isPull' in o ? 'Issue' : 'PullRequest');

/** The Node id of a row whose type is `typename` (as Pothos encodes a prismaNode's id). */
const idOf = (typename: string, o: { id: number }) => encodeGlobalID(typename, o.id);

/** An interface whose shared field is the Node id; `typeOf` names the implementing type of a value. */
function nodeInterface<T extends { id: number }>(name: string, description: string, typeOf: (o: T) => string) {
  return builder.interfaceRef<T>(name).implement({
    description,
    resolveType: typeOf,
    fields: (t) => ({ id: t.id({ description: 'The Node id.', resolve: (o) => idOf(typeOf(o), o) }) }),
  });
}

/** GitHub's Assignable: an issue or pull request (its `assignees` stay on each type until the connection is shared). */
export const AssignableRef = nodeInterface<IssueLike>('Assignable', 'An object that can have users assigned to it.', issueOrPull);

/** GitHub's Labelable (its `labels` stay on each type until the connection is shared). */
export const LabelableRef = nodeInterface<IssueLike>('Labelable', 'An object that can have labels assigned to it.', issueOrPull);

/** GitHub's Lockable: an issue or pull request (`activeLockReason` stays on each type: it reads the lock comment). */
export const LockableRef = builder.interfaceRef<IssueLike>('Lockable').implement({
  description: 'An object that can be locked.',
  resolveType: issueOrPull,
  fields: (t) => ({
    id: t.id({ description: 'The Node id.', resolve: (o) => idOf(issueOrPull(o), o) }),
    locked: t.loadable({
      type: 'Boolean',
      description: '`true` if the object is locked.',
      load: (issueIds: number[], ctx) => lockService.lockedIssues(ctx.cx, issueIds),
      resolve: (o) => ('isPull' in o ? o.id : o.issueId),
    }),
  }),
});

/** What a GitHub ProjectV2 would hold (projectV2.ts): Gitea has none, so no value of it is ever made. */
export interface ProjectV2Shape {
  id: number;
  number: number;
  title: string;
  closed: boolean;
  public: boolean;
  path: string;
}

type ClosableRow = IssueLike | Models.Milestone | Models.Project | ProjectV2Shape;

/** GitHub's Closable: issues, pull requests, milestones and projects (and GitHub's Projects, of which there are none). */
export const ClosableRef = nodeInterface<ClosableRow>('Closable', 'An object that can be closed.', (o) => {
  if ('public' in o) return 'ProjectV2';
  return 'isPull' in o || 'baseRepoId' in o ? issueOrPull(o) : 'numIssues' in o ? 'Milestone' : 'Project';
});

type ReactableRow = IssueLike | Models.Comment | Models.Review | Models.Release;

/**
 * GitHub's Reactable: issues, pull requests, comments (plain and review), reviews and releases; `databaseId` is
 * the REST id as on each of them.
 */
export const ReactableRef = builder.interfaceRef<ReactableRow>('Reactable').implement({
  description: 'Represents a subject that can be reacted on.',
  resolveType: reactableTypeOf,
  fields: (t) => ({
    id: t.id({ description: 'The Node id.', resolve: (o) => idOf(reactableTypeOf(o), o) }),
    databaseId: t.exposeInt('id', { description: 'The REST id.' }),
  }),
});

function reactableTypeOf(o: ReactableRow): string {
  if ('isPull' in o || 'baseRepoId' in o) return issueOrPull(o);
  if ('tagName' in o) return 'Release';
  if ('reviewerId' in o) return 'PullRequestReview';
  return o.type === 'CODE' ? 'PullRequestReviewComment' : 'IssueComment';
}

/** GitHub's Starrable: repositories and topics (which no one can star here: their stargazerCount is 0). */
export const StarrableRef = builder.interfaceRef<Models.Repository | Models.Topic>('Starrable').implement({
  description: 'Things that can be starred.',
  resolveType: starrableTypeOf,
  fields: (t) => ({
    id: t.id({ description: 'The Node id.', resolve: (o) => idOf(starrableTypeOf(o), o) }),
    stargazerCount: t.int({
      description: 'How many users starred it (topics cannot be starred).',
      resolve: (o) => ('numStars' in o ? o.numStars : 0),
    }),

    viewerHasStarred: t.boolean({
      description: 'Whether the viewer starred it (never a topic).',
      resolve: async (o, _a, ctx) => 'ownerName' in o && (await starService.viewerStarredRepoIds(ctx.cx, [o.id])).has(o.id),
    }),
  }),
});

function starrableTypeOf(o: Models.Repository | Models.Topic): 'Repository' | 'Topic' {
  return 'ownerName' in o ? 'Repository' : 'Topic';
}

type SubscribableValue = IssueLike | Models.Repository | Models.Team | Extract<GitObjectView, { type: 'commit' }>;

/**
 * GitHub's Subscribable: what one can watch — repositories, issues and pull requests here; teams and commits are
 * Subscribable on GitHub, and answer `viewerCanSubscribe: false` here (Gitea has no team or commit subscriptions).
 */
export const SubscribableRef = builder.interfaceRef<SubscribableValue>('Subscribable').implement({
  description: 'Entities that can be subscribed to for web and email notifications.',
  resolveType: subscribableTypeOf,
  fields: (t) => ({
    id: t.id({
      description: 'The Node id.',
      resolve: (o) => ('commit' in o ? encodeGlobalID('Commit', `${o.repo.id}:${o.oid}`) : idOf(subscribableTypeOf(o), o)),
    }),
    viewerCanSubscribe: t.boolean({
      description: 'Whether the viewer may watch it: any signed-in reader, for repositories, issues and pull requests.',
      resolve: (o, _a, ctx) => ctx.cx.viewer !== null && !('commit' in o) && !('authorize' in o),
    }),
  }),
});

function subscribableTypeOf(o: SubscribableValue): string {
  if ('kind' in o && (o.kind === 'pull' || o.kind === 'issue')) return o.kind === 'pull' ? 'PullRequest' : 'Issue';
  if ('commit' in o) return 'Commit';
  if ('isPull' in o || 'baseRepoId' in o) return issueOrPull(o);
  return 'ownerName' in o ? 'Repository' : 'Team';
}

/** GitHub's ProjectOwner: repositories (repository projects), organizations and users (owner-level projects). */
export const ProjectOwnerRef = builder.interfaceRef<Models.Repository | Models.User>('ProjectOwner').implement({
  description: 'Represents an owner of a project.',
  resolveType: projectOwnerTypeOf,
  fields: (t) => ({
    id: t.id({ description: 'The Node id.', resolve: (o) => idOf(projectOwnerTypeOf(o), o) }),
    projectsResourcePath: t.field({ type: 'URI', description: 'The web path listing its projects.', resolve: (o) => projectsPath(o) }),
    projectsUrl: t.field({
      type: 'URI',
      description: 'The web URL listing its projects.',
      resolve: (o, _a, ctx) => `${ctx.cx.config.rootUrl}${projectsPath(o).slice(1)}`,
    }),
  }),
});

function projectOwnerTypeOf(o: Models.Repository | Models.User): 'Repository' | 'Organization' | 'User' {
  return 'ownerName' in o ? 'Repository' : o.type === 'ORGANIZATION' ? 'Organization' : 'User';
}

/** Gitea's project pages: `/{owner}/{repo}/projects` for a repository, `/{owner}/-/projects` for an account. */
function projectsPath(o: Models.Repository | Models.User): string {
  return 'ownerName' in o
    ? `/${encodeURIComponent(o.ownerName)}/${encodeURIComponent(o.name)}/projects`
    : `/${encodeURIComponent(o.name)}/-/projects`;
}
