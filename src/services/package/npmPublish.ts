// Parsing an npm publish body (Gitea modules/packages/npm/creator.go ParsePackage): the first version and the
// first attachment are used; the tarball must match `dist.integrity`.
import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '../../errors.ts';
import { formatSemver, parseSemver } from './semver.ts';

/** Gitea's npm Metadata (stored as the version's metadata JSON, Gitea's field names). */
export interface NpmMetadata {
  scope?: string;
  name?: string;
  description?: string;
  author?: string;
  license?: string;
  project_url?: string;
  keywords?: string[];
  dependencies?: Record<string, string>;
  bundleDependencies?: string[];
  development_dependencies?: Record<string, string>;
  peer_dependencies?: Record<string, string>;
  optional_dependencies?: Record<string, string>;
  bin?: Record<string, string>;
  readme?: string;
  repository?: { type: string; url: string };
}

/** A parsed publish request. */
export interface NpmUpload {
  name: string;
  version: string;
  distTags: string[];
  metadata: NpmMetadata;
  filename: string;
  data: Buffer;
}

const NAME = /^(@[a-z0-9-][a-z0-9-._]*\/)?[a-z0-9-][a-z0-9-._]*$/;

/** npm's package name rule as Gitea checks it. */
export function validNpmName(name: string): boolean {
  return name.trim() === name && name.length > 0 && name.length <= 214 && NAME.test(name);
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strMap = (v: unknown): Record<string, string> | undefined => {
  const entries = Object.entries(obj(v)).filter((e): e is [string, string] => typeof e[1] === 'string');
  return entries.length ? Object.fromEntries(entries) : undefined;
};
const strList = (v: unknown): string[] | undefined => {
  const list = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return list.length ? list : undefined;
};

/** npm's person field: a string or `{name}`. */
const personName = (v: unknown): string => (typeof v === 'string' ? v : str(obj(v).name));

function validUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function integrityMatches(integrity: string, data: Buffer): boolean {
  const dash = integrity.indexOf('-');
  if (dash < 0) return false;
  const algo = integrity.slice(0, dash);
  if (algo !== 'sha1' && algo !== 'sha512') return false;
  const expected = Buffer.from(integrity.slice(dash + 1), 'base64');
  return expected.equals(createHash(algo).update(data).digest());
}

/**
 * Parses and checks a publish body. @throws InvalidArgumentError with Gitea's messages (`package name is invalid`,
 * `package version is invalid`, `package attachment is invalid`, `failed to validate integrity`, `package is invalid`)
 */
export function parseNpmUpload(body: unknown): NpmUpload {
  const upload = obj(body);
  const [meta] = Object.values(obj(upload.versions)).map(obj);
  if (!meta) throw new InvalidArgumentError('package is invalid');
  const fullName = str(meta.name);
  if (!validNpmName(fullName)) throw new InvalidArgumentError('package name is invalid');
  const parsed = parseSemver(str(meta.version));
  if (!parsed) throw new InvalidArgumentError('package version is invalid');
  const version = formatSemver(parsed);
  const slash = fullName.indexOf('/');
  const scope = slash > 0 ? fullName.slice(0, slash) : '';
  const shortName = slash > 0 ? fullName.slice(slash + 1) : fullName;
  const homepage = str(meta.homepage);
  const repository = obj(meta.repository);
  const metadata: NpmMetadata = {
    ...(scope ? { scope } : {}),
    name: shortName,
    description: str(meta.description) || undefined,
    author: personName(meta.author) || undefined,
    license: str(meta.license) || undefined,
    project_url: validUrl(homepage) ? homepage : undefined,
    keywords: strList(meta.keywords),
    dependencies: strMap(meta.dependencies),
    bundleDependencies: strList(meta.bundleDependencies),
    development_dependencies: strMap(meta.devDependencies),
    peer_dependencies: strMap(meta.peerDependencies),
    optional_dependencies: strMap(meta.optionalDependencies),
    bin: strMap(meta.bin),
    readme: str(meta.readme) || undefined,
    ...(typeof meta.repository === 'string'
      ? { repository: { type: '', url: meta.repository } }
      : repository.url || repository.type
        ? { repository: { type: str(repository.type), url: str(repository.url) } }
        : {}),
  };
  const [attachment] = Object.values(obj(upload._attachments)).map(obj);
  const encoded = attachment ? str(attachment.data) : '';
  if (!encoded || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) throw new InvalidArgumentError('package attachment is invalid');
  const data = Buffer.from(encoded, 'base64');
  if (!integrityMatches(str(obj(meta.dist).integrity), data)) throw new InvalidArgumentError('failed to validate integrity');
  return {
    name: fullName,
    version,
    distTags: Object.keys(obj(upload['dist-tags'])),
    metadata,
    filename: `${shortName}-${version}.tgz`.toLowerCase(),
    data,
  };
}
