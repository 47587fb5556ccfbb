import { createContextCache } from '@pothos/core';
import { encodeGlobalID, resolveOffsetConnection } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import { InvalidArgumentError } from '../../errors.ts';
import { commitHistory, gitObjectLoader, gitObjectsByKey, type GitObjectView, type HistoryFilter } from '../../services/repo/gitObject.ts';
import type { TreeEntry } from '../../git/readTreePath.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { totalOf } from '../totalCount.ts';
import type { GraphQLContext } from '../context.ts';
import { checkedBy, filteredBy, inherits } from '../policy.ts';
import { dbId, dbIdOf } from '../ids.ts';
import { tokenReadScope } from '../tokenReadScopes.ts';
import { RefRef } from './ref.ts';
import { RepositoryRef } from './repository.ts';
import { SubscribableRef } from './githubInterfaces.ts';

/** A commit as the graph holds it. */
export type CommitView = Extract<GitObjectView, { type: 'commit' }>;
type TreeView = Extract<GitObjectView, { type: 'tree' }>;
type BlobView = Extract<GitObjectView, { type: 'blob' }>;
type TagView = Extract<GitObjectView, { type: 'tag' }>;
/** What the git object loader needs to know of a repository. */
type GitObjectRepo = Pick<Models.Repository, 'id' | 'ownerName' | 'name' | 'isEmpty'>;

const objects = createContextCache((ctx: GraphQLContext) => gitObjectLoader(ctx.cx));

/** The commit `oid` of a repository through the request's git object loader; null when unreadable or not a commit. */
export async function loadCommit(ctx: GraphQLContext, repo: GitObjectRepo, oid: string): Promise<CommitView | null> {
  const o = await objects(ctx).load({ repo, expression: oid });
  return o?.type === 'commit' ? o : null;
}

const GIT_TYPENAME = { commit: 'Commit', tree: 'Tree', blob: 'Blob', tag: 'Tag' } as const;

/** A git object's key in its global id: `<repository id>:<object id>`. */
const gitObjectId = (o: GitObjectView) => `${o.repo.id}:${o.oid}`;

/**
 * node(id:) of git objects of one kind (and of what a commit's id also names: its Status and StatusCheckRollup): through the repository read policy with the code unit
 * (services/repo/gitObject.ts gitObjectsByKey); null for another kind of object behind the same id.
 */
export async function loadGitObjects<K extends GitObjectView['type']>(
  ctx: GraphQLContext,
  ids: readonly string[],
  type: K,
): Promise<(Extract<GitObjectView, { type: K }> | null)[]> {
  const keys = ids.map((id) => {
    const colon = id.indexOf(':');
    return colon > 0 ? { repoId: dbId(id.slice(0, colon)), oid: id.slice(colon + 1) } : { repoId: 0, oid: '' };
  });
  const found = await gitObjectsByKey(ctx.cx, keys, objects(ctx));
  return found.map((o) => (o?.type === type ? (o as Extract<GitObjectView, { type: K }>) : null));
}

/** The type options every git object Node shares: its global id and its node(id:) policy. */
const GIT_NODE = {
  ...filteredBy('repoReadWhere'),
  id: { resolve: gitObjectId },
} as const;

const GitObjectRef = builder.interfaceRef<GitObjectView>('GitObject').implement({
  description: 'A git object: commit, tree, blob or tag.',
  resolveType: (o) => GIT_TYPENAME[o.type],
  fields: (t) => ({
    id: t.id({ description: 'The Node id (node(id:) answers it).', resolve: (o) => encodeGlobalID(GIT_TYPENAME[o.type], gitObjectId(o)) }),
    oid: t.field({ type: 'GitObjectID', resolve: (o) => o.oid }),
    abbreviatedOid: t.string({ resolve: (o) => o.oid.slice(0, 7) }),
  }),
});

/** A commit's author and committer are part of the commit. */
const OF_COMMIT = inherits('part of a readable commit');

const GitActorRef = builder.objectRef<{ name: string; email: string; when: string }>('GitActor').implement({
  description: 'The author or committer of a commit.',
  fields: (t) => ({
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    date: t.field({ type: 'GitTimestamp', description: 'RFC 3339 with the commit time zone.', resolve: (a) => a.when }),
  }),
});

/** GitHub's CommitAuthor: a user (by id) or e-mail addresses whose commits a history keeps. */
const CommitAuthorInput = builder.inputType('CommitAuthor', {
  description: 'Specifies an author for filtering Git commits.',
  fields: (t) => ({
    id: t.globalID({ description: "A user's id: commits by one of the user's activated e-mail addresses." }),
    emails: t.stringList({ description: 'Commits by one of these e-mail addresses.' }),
  }),
});

/** GitHub's Commit. */
export const CommitRef = builder.objectRef<CommitView>('Commit');

builder.node(CommitRef, {
  description: 'A commit.',
  interfaces: [GitObjectRef, SubscribableRef],
  ...GIT_NODE,
  loadMany: (ids, ctx) => loadGitObjects(ctx, ids, 'commit'),
  fields: (t) => ({
    message: t.string({ resolve: (c) => c.commit.message }),
    messageHeadline: t.string({ resolve: (c) => c.commit.message.split('\n')[0] ?? '' }),
    author: t.field({ type: GitActorRef, ...OF_COMMIT, resolve: (c) => c.commit.author }),
    committer: t.field({ type: GitActorRef, ...OF_COMMIT, resolve: (c) => c.commit.committer }),
    authoredDate: t.field({ type: 'DateTime', resolve: (c) => new Date(c.commit.author.when) }),
    committedDate: t.field({ type: 'DateTime', resolve: (c) => new Date(c.commit.committer.when) }),
    treeOid: t.string({ resolve: (c) => c.commit.tree }),
    parentOids: t.stringList({ resolve: (c) => c.commit.parents }),
    history: t.connection(
      {
        type: CommitRef,
        description:
          'The commits reachable from this one, newest first (GitHub Commit.history); `path` keeps those that touched it, `since`/`until` those committed in that window, `author` those of a user (their activated e-mail addresses) or of e-mail addresses.',
        args: {
          path: t.arg.string(),
          since: t.arg({ type: 'GitTimestamp' }),
          until: t.arg({ type: 'GitTimestamp' }),
          author: t.arg({ type: CommitAuthorInput }),
        },
        ...inherits('the history of a readable commit is in the same repository'),
        resolve: async (c, args, ctx) => {
          let total = 0;
          const filter: HistoryFilter = {
            ...(args.path ? { path: args.path } : {}),
            ...(args.since ? { since: args.since } : {}),
            ...(args.until ? { until: args.until } : {}),
            ...(args.author?.emails ? { authorEmails: args.author.emails } : {}),
            ...(args.author?.id ? { authorId: dbIdOf(args.author.id, 'User') } : {}),
          };
          const conn = await resolveOffsetConnection(
            { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
            async ({ offset, limit }) => {
              const page = await commitHistory(ctx.cx, c.repo, c.oid, { ...filter, skip: offset, limit });
              total = page.total;
              return page.commits;
            },
          );
          return { ...conn, total };
        },
      },
      { fields: (conn) => ({ totalCount: conn.int({ resolve: totalOf }) }) },
      { name: 'CommitEdge' },
    ),
  }),
});

const TreeEntryRef = builder.objectRef<TreeEntry>('TreeEntry').implement({
  description: 'One entry of a tree.',
  fields: (t) => ({
    name: t.exposeString('name'),
    path: t.exposeString('path'),
    mode: t.int({
      description: "The file mode as GitHub gives it: the octal git mode's value (100644 is 33188).",
      resolve: (e) => parseInt(e.mode, 8),
    }),
    type: t.exposeString('type', { description: 'blob, tree or commit (a submodule).' }),
    oid: t.field({ type: 'GitObjectID', resolve: (e) => e.sha }),
    size: t.exposeInt('size', { description: 'Blob size in bytes; 0 for trees.' }),
  }),
});

const TreeRef = builder.objectRef<TreeView>('Tree');
builder.node(TreeRef, {
  description: 'A directory listing.',
  interfaces: [GitObjectRef],
  ...GIT_NODE,
  loadMany: (ids, ctx) => loadGitObjects(ctx, ids, 'tree'),
  fields: (t) => ({
    entries: t.field({ type: [TreeEntryRef], ...inherits('the entries of a readable tree'), resolve: (tr) => tr.entries }),
  }),
});

const BlobRef = builder.objectRef<BlobView>('Blob');
builder.node(BlobRef, {
  description: 'File content. Text is null for binary files and for blobs over 10 MiB.',
  interfaces: [GitObjectRef],
  ...GIT_NODE,
  loadMany: (ids, ctx) => loadGitObjects(ctx, ids, 'blob'),
  fields: (t) => ({
    byteSize: t.exposeInt('byteSize'),
    isTruncated: t.boolean({ resolve: (b) => b.content === null }),
    isBinary: t.boolean({ nullable: true, resolve: (b) => (b.content ? b.content.subarray(0, 8000).includes(0) : null) }),
    text: t.string({
      nullable: true,
      resolve: (b) => (b.content && !b.content.subarray(0, 8000).includes(0) ? b.content.toString('utf8') : null),
    }),
  }),
});

export const TagRef = builder.objectRef<TagView>('Tag');
builder.node(TagRef, {
  description: 'An annotated tag.',
  interfaces: [GitObjectRef],
  ...GIT_NODE,
  loadMany: (ids, ctx) => loadGitObjects(ctx, ids, 'tag'),
  fields: () => ({}),
});
tokenReadScope(CommitRef, 'repository');
tokenReadScope(TreeRef, 'repository');
tokenReadScope(BlobRef, 'repository');
tokenReadScope(TagRef, 'repository');

builder.prismaObjectFields(RepositoryRef, (t) => ({
  object: t.field({
    type: GitObjectRef,
    nullable: true,
    description:
      'A git object by revision expression (`main`, `v1.0`, `HEAD:src`, `main:README.md`, a sha) or by `oid`; null when it names nothing or the code unit is not readable.',
    args: { expression: t.arg.string(), oid: t.arg({ type: 'GitObjectID' }) },
    ...checkedBy('gitObjectLoader (code unit readable)'),
    select: { id: true, ownerName: true, name: true, isEmpty: true },
    resolve: (repo, args, ctx) => {
      const expression = args.oid ?? args.expression;
      if (!expression) throw new InvalidArgumentError('object needs an expression or an oid', { field: 'expression' });
      return objects(ctx).load({ repo, expression });
    },
  }),
}));

builder.objectFields(RefRef, (t) => ({
  target: t.field({
    type: GitObjectRef,
    nullable: true,
    description:
      "The object the ref points at (GitHub Ref.target): a branch's or a lightweight tag's commit, an annotated tag's Tag; null when it is gone from the repository.",
    ...inherits('a readable ref implies the object it points at'),
    resolve: (ref, _args, ctx) => objects(ctx).load({ repo: ref.repo, expression: ref.oid }),
  }),
}));
