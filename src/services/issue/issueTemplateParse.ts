// Gitea's issue template files (modules/issue/template): Markdown with YAML front matter, or YAML issue forms,
// parsed and validated as Gitea does; no I/O.
import { yamlModule } from '../../lazyPackage.ts';

/** A form field of a YAML issue template (Gitea IssueFormField). */
export interface IssueFormField {
  type: string;
  id: string;
  attributes: Record<string, unknown> | null;
  validations: Record<string, unknown> | null;
  visible: string[];
}

/** An issue template (Gitea api.IssueTemplate); lists are null when the file has none, as Go's nil slices. */
export interface IssueTemplate {
  name: string;
  title: string;
  about: string;
  labels: string[] | null;
  assignees: string[] | null;
  ref: string;
  content: string;
  body: IssueFormField[] | null;
  file_name: string;
}

const FIELD_TYPES = new Set(['markdown', 'textarea', 'input', 'dropdown', 'checkboxes']);

/** Whether a file in a template directory is a template (Gitea CouldBe): .md, .yaml or .yml, but not config.*. */
export function couldBeTemplate(fileName: string): boolean {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  if (base === 'config.yaml' || base === 'config.yml') return false;
  return /\.(md|ya?ml)$/.test(base);
}

/** Gitea IssueTemplateStringSlice: a YAML list, or one comma-separated string. */
function stringSlice(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter(Boolean);
  throw new Error('line 1: cannot unmarshal into a string slice');
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const record = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A line of only dashes, at least three (Gitea isYAMLSeparator). */
const isSeparator = (line: string): boolean => /^-{3,}$/.test(line.trim());

/** Gitea markdown.ExtractMetadata: the front matter between the first two separator lines, and the body after them. */
function frontMatter(content: string): { meta: Record<string, unknown>; body: string } | null {
  const lines = content.split('\n');
  if (!isSeparator(lines[0] ?? '')) return null;
  const close = lines.findIndex((l, i) => i > 0 && isSeparator(l));
  if (close < 0) return null;
  const front = lines.slice(1, close).join('\n');
  if (!front) return null;
  try {
    const meta = record(yamlModule().parse(front)) ?? {};
    return { meta, body: lines.slice(close + 1).join('\n') };
  } catch {
    return null;
  }
}

/** Gitea validateYaml for the form fields. @throws Error with Gitea's message */
function validateFields(fields: IssueFormField[]): void {
  if (!fields.length) throw new Error("'body' is required");
  const ids = new Set<string>();
  fields.forEach((f, i) => {
    const at = `body[${i}]`;
    if (!FIELD_TYPES.has(f.type)) throw new Error(`${at}: unknown type`);
    if (ids.has(f.id)) throw new Error(`${at}: 'id' should be unique`);
    ids.add(f.id);
    const attrs = f.attributes ?? {};
    if (f.type === 'markdown') {
      if (typeof attrs.value !== 'string' || !attrs.value) throw new Error(`${at}: 'value' is required`);
      return;
    }
    if (typeof attrs.label !== 'string' || !attrs.label) throw new Error(`${at}: 'label' is required`);
    if (f.type === 'dropdown' || f.type === 'checkboxes') {
      const options = attrs.options;
      if (!Array.isArray(options) || !options.length) throw new Error(`${at}: 'options' is required and should be a array`);
      if (f.type === 'checkboxes' && options.some((o) => typeof record(o)?.label !== 'string'))
        throw new Error(`${at}, option: 'label' is required`);
    }
  });
}

/** The form fields of a YAML template, with Gitea's defaults (id = position; visible in the form, and in the content unless markdown). */
function formFields(value: unknown): IssueFormField[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error("yaml unmarshal: 'body' should be a list");
  return value.map((raw, i) => {
    const f = record(raw) ?? {};
    const type = text(f.type);
    const visible = Array.isArray(f.visible) ? f.visible.map(String) : type === 'markdown' ? ['form'] : ['form', 'content'];
    return { type, id: text(f.id) || String(i), attributes: record(f.attributes), validations: record(f.validations), visible };
  });
}

/**
 * Parses one template file (Gitea template.unmarshal + Validate). A Markdown file whose front matter cannot be read is
 * still a template, named after the file, about its first 80 bytes (and then fails validation only without them).
 * @throws Error with Gitea's message when the file is not a valid template
 */
export function parseIssueTemplate(fileName: string, content: string): IssueTemplate {
  const it: IssueTemplate = {
    name: '',
    title: '',
    about: '',
    labels: null,
    assignees: null,
    ref: '',
    content: '',
    body: null,
    file_name: fileName,
  };
  let meta: Record<string, unknown>;
  if (fileName.endsWith('.md')) {
    const fm = frontMatter(content);
    if (!fm) {
      it.content = content;
      it.name = fileName.slice(fileName.lastIndexOf('/') + 1);
      it.about = Buffer.from(content).subarray(0, 80).toString('utf8');
      meta = {};
    } else {
      it.content = fm.body;
      meta = fm.meta;
    }
  } else {
    try {
      meta = record(yamlModule().parse(content)) ?? {};
    } catch (err) {
      throw new Error(`yaml unmarshal: ${(err as Error).message.split('\n')[0] ?? ''}`, { cause: err });
    }
    it.body = formFields(meta.body);
  }
  if (meta.name !== undefined) it.name = text(meta.name);
  if (meta.title !== undefined) it.title = text(meta.title);
  it.about = text(meta.about) || text(meta.description) || it.about;
  it.labels = stringSlice(meta.labels);
  it.assignees = stringSlice(meta.assignees);
  it.ref = text(meta.ref);
  if (it.ref && !it.ref.startsWith('refs/')) it.ref = `refs/heads/${it.ref}`;
  if (!it.name.trim()) throw new Error("'name' is required");
  if (!it.about.trim()) throw new Error("'about' is required");
  if (it.body) validateFields(it.body);
  return it;
}

/** A repository's issue config (Gitea api.IssueConfig). */
export interface IssueConfig {
  blank_issues_enabled: boolean;
  contact_links: { name: string; url: string; about: string }[];
}

/** Gitea GetDefaultTemplateConfig. */
export const defaultIssueConfig = (): IssueConfig => ({ blank_issues_enabled: true, contact_links: [] });

/** Parses config.yaml of the template directory (Gitea GetTemplateConfig). @throws Error with Gitea's message */
export function parseIssueConfig(content: string): IssueConfig {
  let raw: Record<string, unknown>;
  try {
    raw = record(yamlModule().parse(content)) ?? {};
  } catch (err) {
    throw new Error(`yaml: ${(err as Error).message.split('\n')[0] ?? ''}`, { cause: err });
  }
  const config = defaultIssueConfig();
  if (raw.blank_issues_enabled !== undefined) config.blank_issues_enabled = raw.blank_issues_enabled === true;
  const links = Array.isArray(raw.contact_links) ? raw.contact_links : [];
  links.forEach((l, i) => {
    const link = { name: text(record(l)?.name), url: text(record(l)?.url), about: text(record(l)?.about) };
    for (const key of ['name', 'url', 'about'] as const)
      if (!link[key]) throw new Error(`contact_link at position ${i + 1} is missing ${key} key`);
    if (!URL.canParse(link.url) && !link.url.startsWith('/')) throw new Error(`${link.url} is not a valid URL`);
    config.contact_links.push(link);
  });
  return config;
}
