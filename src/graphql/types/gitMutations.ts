// GitHub's git write mutations: createRef, updateRef, deleteRef and createCommitOnBranch (the services of the REST branch and contents writes).
import { InvalidArgumentError } from '../../errors.ts';
import * as filesService from '../../services/repo/files.ts';
import * as refService from '../../services/repo/refs.ts';
import { builder } from '../builder.ts';
import { writeScope } from '../tokenWriteScopes.ts';
import { requireDbIdOf, type GlobalId } from '../ids.ts';
import { CommitRef } from './gitObject.ts';
import { RefRef, refsOf } from './ref.ts';

/** The repository and ref name of a Ref id the viewer may read (a branch they cannot see is NOT_FOUND). */
const refOf = (ctx: { cx: Parameters<typeof refService.refById>[0] }, gid: { typename: string; id: string }) =>
  refService.refById(ctx.cx, requireDbIdOf(gid, 'Ref', 'ref does not exist'));

const repoIdOf = (gid: { typename: string; id: string }) => requireDbIdOf(gid, 'Repository', 'repository does not exist');

builder.relayMutationField(
  'createRef',
  {
    inputFields: (t) => ({
      repositoryId: t.globalID({ required: true }),
      name: t.string({ required: true, description: 'The fully qualified name of the new branch (refs/heads/…).' }),
      oid: t.field({ type: 'GitObjectID', required: true, description: 'The commit the ref points at.' }),
    }),
  },
  {
    description: 'Create a branch (as POST /repos/{owner}/{repo}/branches).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => ({
      ref: await refService.createRef(ctx.cx, repoIdOf(input.repositoryId), input.name, input.oid),
    }),
  },
  { outputFields: (t) => ({ ref: t.field({ type: RefRef, resolve: (p) => p.ref }) }) },
);

builder.relayMutationField(
  'updateRef',
  {
    inputFields: (t) => ({
      refId: t.globalID({ required: true, description: 'The Node ID of the Ref to be updated.' }),
      oid: t.field({ type: 'GitObjectID', required: true }),
      force: t.boolean({ defaultValue: false, description: 'Allow a move that is not a fast-forward.' }),
    }),
  },
  {
    description: 'Move a branch to a commit (a fast-forward unless `force`); recorded as a push.',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => ({
      ref: await refOf(ctx, input.refId).then(({ repoId, name }) =>
        refService.updateRef(ctx.cx, repoId, name, input.oid, input.force ?? false),
      ),
    }),
  },
  { outputFields: (t) => ({ ref: t.field({ type: RefRef, resolve: (p) => p.ref }) }) },
);

builder.relayMutationField(
  'deleteRef',
  {
    inputFields: (t) => ({ refId: t.globalID({ required: true, description: 'The Node ID of the Ref to be deleted.' }) }),
  },
  {
    description: 'Delete a branch (as DELETE /repos/{owner}/{repo}/branches/{branch}).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const { repoId, name } = await refOf(ctx, input.refId);
      await refService.deleteRef(ctx.cx, repoId, name);
      return { deleted: true };
    },
  },
  { outputFields: (t) => ({ deleted: t.boolean({ resolve: (p) => p.deleted }) }) },
);

const CommittableBranch = builder.inputType('CommittableBranch', {
  description: 'The branch to commit to: its Ref id, or the repository and the branch name.',
  fields: (t) => ({
    id: t.globalID({ description: 'The Node ID of the Ref.' }),
    repositoryNameWithOwner: t.string({ description: '`owner/name`.' }),
    branchName: t.string(),
  }),
});

/** The repository and branch a CommittableBranch names. @throws InvalidArgumentError, NotFoundError (a Ref id the viewer cannot read) */
async function committableBranch(
  ctx: Parameters<typeof refOf>[0],
  input: { id?: GlobalId | null; repositoryNameWithOwner?: string | null; branchName?: string | null },
) {
  if (input.id) {
    const at = await refOf(ctx, input.id);
    return { repo: at.repo, branch: at.branch };
  }
  const [owner = '', repo = '', ...rest] = (input.repositoryNameWithOwner ?? '').split('/');
  if (!owner || !repo || rest.length || !input.branchName)
    throw new InvalidArgumentError('branch: give its id, or repositoryNameWithOwner (owner/name) and branchName');
  return { repo: { owner, repo }, branch: input.branchName };
}
const CommitMessage = builder.inputType('CommitMessage', {
  fields: (t) => ({ headline: t.string({ required: true }), body: t.string() }),
});
const FileAddition = builder.inputType('FileAddition', {
  fields: (t) => ({
    path: t.string({ required: true }),
    contents: t.field({ type: 'Base64String', required: true, description: 'The file content, base64 encoded.' }),
  }),
});
const FileDeletion = builder.inputType('FileDeletion', { fields: (t) => ({ path: t.string({ required: true }) }) });
const FileChanges = builder.inputType('FileChanges', {
  fields: (t) => ({ additions: t.field({ type: [FileAddition] }), deletions: t.field({ type: [FileDeletion] }) }),
});

builder.relayMutationField(
  'createCommitOnBranch',
  {
    inputFields: (t) => ({
      branch: t.field({ type: CommittableBranch, required: true }),
      message: t.field({ type: CommitMessage, required: true }),
      fileChanges: t.field({ type: FileChanges }),
      expectedHeadOid: t.field({ type: 'GitObjectID', required: true, description: 'The branch head the changes were made on.' }),
    }),
  },
  {
    description: 'Commit file additions and deletions on a branch (as POST /repos/{owner}/{repo}/contents).',
    ...writeScope('repository'),
    resolve: async (_root, { input }, ctx) => {
      const target = await committableBranch(ctx, input.branch);
      const result = await filesService.changeFiles(ctx.cx, target.repo, {
        branch: target.branch,
        message: input.message.body ? `${input.message.headline}\n\n${input.message.body}` : input.message.headline,
        expectedHeadOid: input.expectedHeadOid,
        files: [
          ...(input.fileChanges?.deletions ?? []).map((d) => ({ operation: 'delete' as const, path: d.path })),
          ...(input.fileChanges?.additions ?? []).map((a) => ({ operation: 'upload' as const, path: a.path, content: a.contents })),
        ],
      });
      const ref = await refsOf(ctx).branches.load({ repoId: result.repo.id, name: result.ref.name });
      return { commit: { type: 'commit' as const, oid: result.commit.sha, commit: result.commit, repo: result.repo }, ref };
    },
  },
  {
    outputFields: (t) => ({
      commit: t.field({ type: CommitRef, resolve: (p) => p.commit }),
      ref: t.field({ type: RefRef, nullable: true, resolve: (p) => p.ref }),
    }),
  },
);
