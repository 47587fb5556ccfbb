// GitHub's repository object (REST v3): what `gh repo fork` and `gh search repos` read, from the repository rows of
// the /api/v1 services; links point at what this server serves.
import type { ApiRepoCore } from '../services/repo/repoRows.ts';
import { toGithubOwner } from './convert.ts';
import { nodeId } from './nodeId.ts';

/** GitHub's repository object; `parent` adds GitHub's `parent` and `source` (a fork's origin). */
export function toGithubRepository(repo: ApiRepoCore, rootUrl: string, parent: ApiRepoCore | null = null): Record<string, unknown> {
  const path = `${encodeURIComponent(repo.ownerName)}/${encodeURIComponent(repo.name)}`;
  const has = (type: ApiRepoCore['units'][number]['type']) => repo.units.some((u) => u.type === type);
  const license = repo.licenses[0]?.license;
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: `${repo.ownerName}/${repo.name}`,
    private: repo.isPrivate,
    visibility: repo.isPrivate ? 'private' : 'public',
    owner: toGithubOwner(repo.owner, rootUrl),
    html_url: `${rootUrl}${path}`,
    description: repo.description || null,
    fork: repo.isFork,
    url: `${rootUrl}api/v3/repos/${path}`,
    clone_url: `${rootUrl}${path}.git`,
    homepage: repo.website || null,
    size: Number(repo.size / 1024n),
    stargazers_count: repo.numStars,
    watchers_count: repo.numWatches,
    forks_count: repo.numForks,
    // GitHub counts open pull requests among open issues.
    open_issues_count: repo.numIssues - repo.numClosedIssues + repo.numPulls - repo.numClosedPulls,
    language: repo.languageStats[0]?.language ?? null,
    license: license ? { key: license.toLowerCase(), name: license, spdx_id: license, url: null } : null,
    has_issues: has('ISSUES') || has('EXT_ISSUES'),
    has_projects: has('PROJECTS'),
    has_wiki: has('WIKI') || has('EXT_WIKI'),
    has_downloads: has('RELEASES'),
    has_pages: false,
    has_discussions: false,
    is_template: repo.isTemplate,
    disabled: false,
    default_branch: repo.defaultBranch,
    archived: repo.isArchived,
    created_at: repo.createdAt.toISOString(),
    updated_at: repo.updatedAt.toISOString(),
    // Gitea's updated time, which every push moves.
    pushed_at: repo.updatedAt.toISOString(),
    ...(parent ? { parent: toGithubRepository(parent, rootUrl), source: toGithubRepository(parent, rootUrl) } : {}),
  };
}
