import { createContextCache } from '@pothos/core';
import { resolveOffsetConnection } from '@pothos/plugin-relay';
import type { Models } from '../../db/client.ts';
import { commitHistory, gitObjectLoader, type GitObjectView } from '../../services/repo/gitObject.ts';
import type { TreeEntry } from '../../git/readTreePath.ts';
import { builder, DEFAULT_CONNECTION_SIZE, MAX_CONNECTION_SIZE } from '../builder.ts';
import { totalOf } from '../totalCount.ts';
import type { GraphQLContext } from '../context.ts';
import { checkedBy, inherits } from '../policy.ts';
import { RepositoryRef } from './repository.ts';

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

const GitObjectRef = builder.interfaceRef<GitObjectView>('GitObject').implement({
  description: 'A git object: commit, tree, blob or tag.',
  resolveType: (o) => ({ commit: 'Commit', tree: 'Tree', blob: 'Blob', tag: 'Tag' })[o.type],
  fields: (t) => ({
    oid: t.exposeString('oid'),
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
    date: t.string({ description: 'RFC 3339 with the commit time zone.', resolve: (a) => a.when }),
  }),
});

/** GitHub's Commit. */
export const CommitRef = builder.objectRef<CommitView>('Commit');

CommitRef.implement({
  description: 'A commit.',
  interfaces: [GitObjectRef],
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
        description: 'The commits reachable from this one, newest first (GitHub Commit.history); `path` keeps those that touched it.',
        args: { path: t.arg.string() },
        ...inherits('the history of a readable commit is in the same repository'),
        resolve: async (c, args, ctx) => {
          let total = 0;
          const conn = await resolveOffsetConnection(
            { args, defaultSize: DEFAULT_CONNECTION_SIZE, maxSize: MAX_CONNECTION_SIZE },
            async ({ offset, limit }) => {
              const page = await commitHistory(ctx.cx, c.repo, c.oid, { ...(args.path ? { path: args.path } : {}), skip: offset, limit });
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
    mode: t.exposeString('mode'),
    type: t.exposeString('type', { description: 'blob, tree or commit (a submodule).' }),
    oid: t.exposeString('sha'),
    size: t.exposeInt('size', { description: 'Blob size in bytes; 0 for trees.' }),
  }),
});

builder.objectRef<TreeView>('Tree').implement({
  description: 'A directory listing.',
  interfaces: [GitObjectRef],
  fields: (t) => ({
    entries: t.field({ type: [TreeEntryRef], ...inherits('the entries of a readable tree'), resolve: (tr) => tr.entries }),
  }),
});

builder.objectRef<BlobView>('Blob').implement({
  description: 'File content. Text is null for binary files and for blobs over 10 MiB.',
  interfaces: [GitObjectRef],
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

builder.objectRef<TagView>('Tag').implement({ description: 'An annotated tag.', interfaces: [GitObjectRef], fields: () => ({}) });

builder.prismaObjectFields(RepositoryRef, (t) => ({
  object: t.field({
    type: GitObjectRef,
    nullable: true,
    description:
      'A git object by revision expression (`main`, `v1.0`, `HEAD:src`, `main:README.md`, a sha); null when it names nothing or the code unit is not readable.',
    args: { expression: t.arg.string({ required: true }) },
    ...checkedBy('gitObjectLoader (code unit readable)'),
    select: { id: true, ownerName: true, name: true, isEmpty: true },
    resolve: (repo, args, ctx) => objects(ctx).load({ repo, expression: args.expression }),
  }),
}));
