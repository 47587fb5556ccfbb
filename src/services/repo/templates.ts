import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { NotFoundError, ValidationError } from '../../errors.ts';
import { spdxLicenses } from '../../lazyPackage.ts';
import { ROOT } from '../../paths.ts';

const DIR = path.join(ROOT, 'src/services/repo/templates');

function names(sub: string, ext = ''): string[] {
  return readdirSync(path.join(DIR, sub))
    .filter((f) => f.endsWith(ext))
    .map((f) => (ext ? f.slice(0, -ext.length) : f))
    .sort();
}

/** README templates (Gitea options/readme). */
export const README_TEMPLATES: readonly string[] = names('readme');
/** .gitignore templates (Gitea options/gitignore). */
export const GITIGNORE_TEMPLATES: readonly string[] = names('gitignore');
/** Label sets (Gitea options/label). */
export const LABEL_TEMPLATES: readonly string[] = names('label', '.json');

/** One label of a label set. */
export interface LabelTemplate {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
}

const read = (sub: string, file: string): string => readFileSync(path.join(DIR, sub, file), 'utf8');

/** The label set `name` (`Default`, `Advanced`). @throws ValidationError when unknown (Gitea ErrTemplateLoad, 422) */
export function labelSet(name: string): LabelTemplate[] {
  if (!LABEL_TEMPLATES.includes(name)) {
    throw new ValidationError(
      `failed to load label template file "${name}": label template does not exist, available templates: [${LABEL_TEMPLATES.join(' ')}]`,
      {
        template: name,
      },
    );
  }
  return JSON.parse(read('label', `${name}.json`)) as LabelTemplate[];
}

/** A .gitignore template's text (GET /gitignore/templates/{name}). @throws NotFoundError when unknown */
export function gitignoreTemplate(name: string): { name: string; source: string } {
  if (!GITIGNORE_TEMPLATES.includes(name)) throw new NotFoundError('not found', { template: name });
  return { name, source: read('gitignore', name) };
}

/** A label set's labels (GET /label/templates/{name}). @throws NotFoundError when unknown */
export function labelTemplate(name: string): LabelTemplate[] {
  if (!LABEL_TEMPLATES.includes(name)) throw new NotFoundError('not found', { template: name });
  return labelSet(name);
}

/** Gitea `[repository] PREFERRED_LICENSES`: listed first, in this order. */
const PREFERRED_LICENSES = ['Apache-2.0', 'MIT'];

let licenseNames: readonly string[] | undefined;

/** License template names as Gitea lists them: the preferred ones first, then the rest in byte order. */
export function licenseTemplates(): readonly string[] {
  return (licenseNames ??= [
    ...PREFERRED_LICENSES,
    ...Object.keys(spdxLicenses())
      .filter((id) => !PREFERRED_LICENSES.includes(id))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  ]);
}

/** A license template by its exact name (Gitea options.License), with its SPDX name and text. @throws NotFoundError */
export function licenseTemplate(name: string): { key: string; name: string; body: string } {
  const spdxFull = spdxLicenses();
  const spdx = Object.hasOwn(spdxFull, name) ? spdxFull[name] : undefined;
  if (!spdx) throw new NotFoundError('not found', { template: name });
  return { key: name, name, body: spdx.licenseText };
}

/** True when `name` is a README template. */
export function isReadmeTemplate(name: string): boolean {
  return README_TEMPLATES.includes(name);
}

/** What the initial commit's files are built from. */
export interface InitialFilesInput {
  repoName: string;
  description: string;
  ownerName: string;
  authorEmail: string;
  cloneUrlHttps: string;
  cloneUrlSsh: string;
  readme: string;
  /** Comma-separated .gitignore template names ('' = none). */
  gitignores: string;
  /** SPDX id ('' = none). */
  license: string;
  year: number;
}

/** The SPDX id of a license template name, case-insensitively, or null. */
export function licenseId(name: string): string | null {
  if (!name) return null;
  const spdxFull = spdxLicenses();
  if (Object.hasOwn(spdxFull, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(spdxFull).find((id) => id.toLowerCase() === lower) ?? null;
}

/**
 * Checks the templates an auto-initialised repository needs before anything is written.
 * @throws ValidationError for an unknown .gitignore or license template (Gitea answers 500 here)
 */
export function validateInitTemplates(gitignores: string, license: string): void {
  for (const name of splitNames(gitignores)) {
    if (!GITIGNORE_TEMPLATES.includes(name)) {
      throw new ValidationError(
        `gitignore template does not exist [name: ${name}], available templates: [${GITIGNORE_TEMPLATES.join(' ')}]`,
        { template: name },
      );
    }
  }
  if (license && !licenseId(license))
    throw new ValidationError(`license template does not exist [name: ${license}]`, { template: license });
}

function splitNames(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

// Gitea modules/repository/license.go: the placeholders its license templates use.
const PLACEHOLDERS = {
  owner: [
    '<name of author>',
    '<owner>',
    '[NAME]',
    '[name of copyright owner]',
    '[name of copyright holder]',
    '<COPYRIGHT HOLDERS>',
    '<copyright holders>',
    '<AUTHOR>',
    "<author's name or designee>",
    '[fullname]',
    '<copyright holder>',
  ],
  email: ['[EMAIL]'],
  repo: ['<program>', "<one line to give the program's name and a brief idea of what it does.>"],
  year: ['<year>', '[YEAR]', '{YEAR}', '[yyyy]', '[Year]', '[year]'],
};

function fillLicense(text: string, values: { owner: string; email: string; repo: string; year: string }): string {
  let out = text;
  for (const key of ['owner', 'email', 'repo', 'year'] as const) for (const p of PLACEHOLDERS[key]) out = out.split(p).join(values[key]);
  return out.endsWith('\n') ? out : `${out}\n`;
}

/**
 * Gitea's prepareRepoCommit: README.md from the template with {Name}, {Description}, {OwnerName},
 * {CloneURL.HTTPS}, {CloneURL.SSH}; .gitignore as `# ---> <name>` sections; LICENSE with its placeholders filled.
 */
export function renderInitialFiles(input: InitialFilesInput): Array<{ path: string; content: string }> {
  const vars: Record<string, string> = {
    Name: input.repoName,
    Description: input.description,
    OwnerName: input.ownerName,
    'CloneURL.HTTPS': input.cloneUrlHttps,
    'CloneURL.SSH': input.cloneUrlSsh,
  };
  const files: Array<{ path: string; content: string }> = [];
  if (input.readme) {
    const readme = read('readme', input.readme).replace(/\{([\w.]+)\}/g, (m, key: string) => vars[key] ?? m);
    files.push({ path: 'README.md', content: readme });
  }
  const ignores = splitNames(input.gitignores);
  if (ignores.length) {
    files.push({ path: '.gitignore', content: ignores.map((name) => `# ---> ${name}\n${read('gitignore', name)}\n`).join('') });
  }
  const id = licenseId(input.license);
  const spdx = id ? spdxLicenses()[id] : undefined;
  if (spdx) {
    files.push({
      path: 'LICENSE',
      content: fillLicense(spdx.licenseText, {
        owner: input.ownerName,
        email: input.authorEmail,
        repo: input.repoName,
        year: String(input.year),
      }),
    });
  }
  return files;
}
