import { z } from 'zod';
import * as mirrorEdit from '../../../services/migration/editMirror.ts';
import * as editService from '../../../services/repo/edit.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiRepository } from '../../convert/repo.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';
import { EditRepoOption } from '../../structs/repo.ts';

type Body = z.output<typeof EditRepoOption>;

/** Drops unset keys so the service sees only what the client sent. */
function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toInput(b: Body): editService.EditRepoInput {
  const it = b.internal_tracker;
  const et = b.external_tracker;
  return defined({
    name: b.name,
    description: b.description,
    website: b.website,
    private: b.private,
    template: b.template,
    defaultBranch: b.default_branch,
    hasCode: b.has_code,
    hasIssues: b.has_issues,
    internalTracker: it && {
      enableTimeTracker: it.enable_time_tracker ?? false,
      allowOnlyContributorsToTrackTime: it.allow_only_contributors_to_track_time ?? false,
      enableIssueDependencies: it.enable_issue_dependencies ?? false,
    },
    externalTracker: et && {
      url: et.external_tracker_url ?? '',
      format: et.external_tracker_format ?? '',
      style: et.external_tracker_style ?? '',
      regexpPattern: et.external_tracker_regexp_pattern ?? '',
    },
    hasWiki: b.has_wiki,
    externalWiki: b.external_wiki && { url: b.external_wiki.external_wiki_url ?? '' },
    hasPullRequests: b.has_pull_requests,
    pulls: defined({
      ignoreWhitespaceConflicts: b.ignore_whitespace_conflicts,
      allowMerge: b.allow_merge_commits,
      allowRebase: b.allow_rebase,
      allowRebaseMerge: b.allow_rebase_explicit,
      allowSquash: b.allow_squash_merge,
      allowFastForwardOnly: b.allow_fast_forward_only_merge,
      allowManualMerge: b.allow_manual_merge,
      autodetectManualMerge: b.autodetect_manual_merge,
      allowMergeUpdate: b.allow_merge_update,
      allowRebaseUpdate: b.allow_rebase_update,
      defaultDeleteBranchAfterMerge: b.default_delete_branch_after_merge,
      defaultMergeStyle: b.default_merge_style,
      defaultUpdateStyle: b.default_update_style,
      defaultAllowMaintainerEdit: b.default_allow_maintainer_edit,
    }),
    hasProjects: b.has_projects,
    projectsMode: b.projects_mode || undefined,
    hasReleases: b.has_releases,
    hasPackages: b.has_packages,
    hasActions: b.has_actions,
    archived: b.archived,
    mirrorInterval: b.mirror_interval,
    enablePrune: b.enable_prune,
  });
}

/** PATCH /repos/{owner}/{repo}. */
export const repoEditRoutes = [
  defineRoute({
    method: 'PATCH',
    path: '/repos/{owner}/{repo}',
    operationId: 'repoEdit',
    summary: "Edit a repository's properties. Only fields that are set will be changed.",
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    body: EditRepoOption,
    success: { status: 200, schema: 'Repository' },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params, body }) => {
      const { repo, perm } = await mirrorEdit.editRepoWithMirror(cx, repoRef(params), toInput(body), {
        username: body.mirror_username,
        password: body.mirror_password,
        token: body.mirror_token,
      });
      return toApiRepository(repo, repo.owner, perm, convertOptions(cx));
    },
  }),
];
