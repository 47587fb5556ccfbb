// A repository's issue templates and issue config, read from its default branch (Gitea services/issue/template.go).
import { readObject } from '../../git/readObject.ts';
import { readTreeDirs } from '../../git/readTreePath.ts';
import { repoPath } from '../../git/repoPath.ts';
import { resolveRef } from '../../git/resolveRef.ts';
import { requireTokenScope } from '../access/guards.ts';
import { requireRepo, type RepoRef } from '../access/repoAccess.ts';
import type { ServiceContext } from '../context.ts';
import { MAX_BLOB_SIZE } from '../repo/gitRead.ts';
import {
  couldBeTemplate,
  defaultIssueConfig,
  parseIssueConfig,
  parseIssueTemplate,
  type IssueConfig,
  type IssueTemplate,
} from './issueTemplateParse.ts';

/** Gitea's templateDirCandidates, in its order. */
const TEMPLATE_DIRS = [
  '.gitea/ISSUE_TEMPLATE',
  '.gitea/issue_template',
  '.github/ISSUE_TEMPLATE',
  '.github/issue_template',
  '.gitlab/ISSUE_TEMPLATE',
  '.gitlab/issue_template',
];

/** The default branch's commit and the git directory of a repository the viewer may read. @throws NotFoundError */
async function defaultBranch(cx: ServiceContext, ref: RepoRef): Promise<{ gitDir: string; commit: string | null }> {
  requireTokenScope(cx, 'repository', 'read');
  const { repo } = await requireRepo(cx, ref.owner, ref.repo);
  const gitDir = repoPath(cx.config.repositoriesDir, repo.ownerName, repo.name);
  const resolved = repo.isEmpty ? null : await resolveRef(gitDir, repo.defaultBranch);
  return { gitDir, commit: resolved?.commit ?? null };
}

/** The valid template files of the default branch's template directories, parsed. */
async function readTemplates(gitDir: string, commit: string): Promise<IssueTemplate[]> {
  const entries = await readTreeDirs(gitDir, commit, TEMPLATE_DIRS);
  const templates: IssueTemplate[] = [];
  for (const dir of TEMPLATE_DIRS) {
    for (const entry of entries.filter((e) => e.type === 'blob' && e.path === `${dir}/${e.name}` && couldBeTemplate(e.name))) {
      if (entry.size > MAX_BLOB_SIZE) continue;
      const { content } = await readObject(gitDir, entry.sha);
      try {
        templates.push(parseIssueTemplate(entry.path, content.toString('utf8')));
      } catch {
        // An invalid file is not offered (Gitea logs and skips it).
      }
    }
  }
  return templates;
}

/** GET /repos/{o}/{r}/issue_templates (Gitea GetIssueTemplates): the valid templates of the default branch (invalid files are skipped, as Gitea does). @throws NotFoundError */
export async function listIssueTemplates(cx: ServiceContext, ref: RepoRef): Promise<IssueTemplate[]> {
  const { gitDir, commit } = await defaultBranch(cx, ref);
  return commit ? readTemplates(gitDir, commit) : [];
}

/** The template of the default branch with this file name (or base name), or null. @throws NotFoundError */
export async function findIssueTemplate(cx: ServiceContext, ref: RepoRef, name: string): Promise<IssueTemplate | null> {
  const templates = await listIssueTemplates(cx, ref);
  return templates.find((t) => t.file_name === name || t.file_name.endsWith(`/${name}`) || t.name === name) ?? null;
}

/** Gitea's templateConfigCandidates. */
const CONFIG_CANDIDATES = TEMPLATE_DIRS.slice(0, 4).map((d) => `${d}/config`);

/** The issue config of the default branch, or the error that made Gitea fall back to the default. */
async function readIssueConfig(cx: ServiceContext, ref: RepoRef): Promise<{ config: IssueConfig; error: string | null }> {
  const { gitDir, commit } = await defaultBranch(cx, ref);
  if (!commit) return { config: defaultIssueConfig(), error: null };
  const entries = await readTreeDirs(gitDir, commit, [...new Set(CONFIG_CANDIDATES.map((c) => c.slice(0, c.lastIndexOf('/'))))]);
  for (const candidate of CONFIG_CANDIDATES) {
    const entry = entries.find((e) => e.type === 'blob' && (e.path === `${candidate}.yaml` || e.path === `${candidate}.yml`));
    if (!entry) continue;
    const { content } = await readObject(gitDir, entry.sha);
    try {
      return { config: parseIssueConfig(content.toString('utf8')), error: null };
    } catch (err) {
      return { config: defaultIssueConfig(), error: (err as Error).message };
    }
  }
  return { config: defaultIssueConfig(), error: null };
}

/** GET /repos/{o}/{r}/issue_config (Gitea GetIssueConfig): the default config when there is none or it is invalid. @throws NotFoundError */
export async function getIssueConfig(cx: ServiceContext, ref: RepoRef): Promise<IssueConfig> {
  return (await readIssueConfig(cx, ref)).config;
}

/** GET /repos/{o}/{r}/issue_config/validate (Gitea ValidateIssueConfig). @throws NotFoundError */
export async function validateIssueConfig(cx: ServiceContext, ref: RepoRef): Promise<{ valid: boolean; message: string }> {
  const { error } = await readIssueConfig(cx, ref);
  return { valid: error === null, message: error ?? '' };
}
