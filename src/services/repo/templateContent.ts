// The git content of a repository generated from a template (Gitea GenerateGitContent): the template's
// default-branch tree with `.gitea/template` applied, committed once on the new default branch.
import type { DbTx, Models } from '../../db/client.ts';
import { commitTemplateTree, listTemplateTree, readTemplateBlob, type TemplateFile } from '../../git/commitTemplateTree.ts';
import { repoSize } from '../../git/repoSize.ts';
import { enqueue } from '../../jobs/enqueue.ts';
import { sshCloneUrl } from '../../ssh/settings.ts';
import type { ServiceContext } from '../context.ts';
import { gitSignature } from '../user/gitIdentity.ts';
import { recordGitBranches } from './branchRows.ts';
import { LICENSE_JOB } from './licenseJob.ts';
import {
  expandTemplate,
  isExcluded,
  parseTemplateRules,
  sanitizeTemplatePath,
  templateExpansions,
  type TemplateRules,
} from './templateExpand.ts';

const TEMPLATE_FILE = '.gitea/template';
/** Gitea reads `.gitea/template` and the files it expands up to 1 MiB. */
const MAX_EXPAND_BYTES = 1024 * 1024;
const REGULAR = new Set(['100644', '100755']);

/** The repositories involved: the template (read) and the new one (written). */
export interface GitContentArgs {
  template: Models.Repository;
  repo: Models.Repository;
  owner: Models.User;
  templateDir: string;
  gitdir: string;
  pusherId: number;
}

function links(cx: ServiceContext, owner: string, name: string) {
  const sub = new URL(cx.config.rootUrl).pathname.replace(/\/+$/, '');
  return {
    link: `${sub}/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`,
    https: `${cx.config.rootUrl}${encodeURIComponent(owner)}/${encodeURIComponent(name)}.git`,
    ssh: sshCloneUrl(cx.config.ssh, owner, name),
  };
}

/**
 * Commits the template's default-branch tree onto the new repository's default branch (nothing when that
 * branch does not exist), records the branch row, size and non-empty flag, and enqueues the license job as a
 * push to the default branch does. Returns the commit, null when there was none to make.
 */
export async function generateGitContent(cx: ServiceContext, tx: DbTx, a: GitContentArgs): Promise<string | null> {
  const entries = await listTemplateTree(a.templateDir, a.template.defaultBranch);
  if (!entries) return null;
  const rulesEntry = entries.find((e) => e.path === TEMPLATE_FILE && REGULAR.has(e.mode));
  let files: TemplateFile[] = entries;
  if (rulesEntry) {
    const rules = parseTemplateRules(
      (await readTemplateBlob(a.templateDir, rulesEntry.oid)).subarray(0, MAX_EXPAND_BYTES).toString('utf8'),
    );
    files = await applyRules(
      cx,
      a,
      rules,
      entries.filter((e) => e !== rulesEntry),
    );
  }
  const when = new Date();
  const oid = await commitTemplateTree({
    source: a.templateDir,
    gitdir: a.gitdir,
    branch: a.repo.defaultBranch,
    files,
    author: gitSignature(cx, a.owner, when),
    message: 'Initial commit\n',
  });
  await recordGitBranches(tx, a.repo.id, a.gitdir, a.pusherId);
  const size = await repoSize(a.gitdir);
  await tx.repository.update({ where: { id: a.repo.id }, data: { isEmpty: false, size, gitSize: size } });
  await enqueue(tx, LICENSE_JOB, { repoId: a.repo.id });
  return oid;
}

/** Gitea processGiteaTemplateFile: excluded paths dropped, matching regular files expanded (content and path). */
async function applyRules(
  cx: ServiceContext,
  a: GitContentArgs,
  rules: TemplateRules,
  entries: readonly TemplateFile[],
): Promise<TemplateFile[]> {
  const repoLinks = links(cx, a.repo.ownerName, a.repo.name);
  const templateLinks = links(cx, a.template.ownerName, a.template.name);
  const vars = templateExpansions({
    repoName: a.repo.name,
    repoOwner: a.repo.ownerName,
    repoDescription: a.repo.description,
    repoLink: repoLinks.link,
    repoHttpsUrl: repoLinks.https,
    repoSshUrl: repoLinks.ssh,
    templateName: a.template.name,
    templateOwner: a.template.ownerName,
    templateDescription: a.template.description,
    templateLink: templateLinks.link,
    templateHttpsUrl: templateLinks.https,
    templateSshUrl: templateLinks.ssh,
    now: new Date(),
  });
  const out = new Map<string, TemplateFile>();
  for (const e of entries) {
    if (isExcluded(rules, e.path)) continue;
    if (!('oid' in e) || !REGULAR.has(e.mode) || !rules.expand.some((m) => m(e.path))) {
      out.set(e.path, e);
      continue;
    }
    const blob = await readTemplateBlob(a.templateDir, e.oid);
    if (blob.length > MAX_EXPAND_BYTES) {
      out.set(e.path, e);
      continue;
    }
    const path = sanitizeTemplatePath(expandTemplate(e.path, vars)) || e.path;
    out.delete(e.path);
    out.set(path, { mode: e.mode, path, content: expandTemplate(blob.toString('utf8'), vars) });
  }
  return [...out.values()];
}
