// Semantic versions as Gitea reads them (hashicorp/go-version NewSemver): `v` prefix and missing minor/patch
// allowed, normalized to `major.minor.patch[-pre][+meta]`; ordered by semver precedence.

/** A parsed version. */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  pre: string;
  meta: string;
}

const PATTERN = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/** Parses a version; null when it is not one. */
export function parseSemver(raw: string): SemVer | null {
  const m = PATTERN.exec(raw);
  if (!m) return null;
  const num = (s: string | undefined) => (s === undefined ? 0 : Number(s));
  return { major: num(m[1]), minor: num(m[2]), patch: num(m[3]), pre: m[4] ?? '', meta: m[5] ?? '' };
}

/** The normalized text of a version. */
export function formatSemver(v: SemVer): string {
  return `${v.major}.${v.minor}.${v.patch}${v.pre ? `-${v.pre}` : ''}${v.meta ? `+${v.meta}` : ''}`;
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Semver precedence of two version strings; unparsable ones sort first, by text. */
export function compareVersions(a: string, b: string): number {
  const va = parseSemver(a);
  const vb = parseSemver(b);
  if (!va || !vb) return va ? 1 : vb ? -1 : a < b ? -1 : a > b ? 1 : 0;
  return va.major - vb.major || va.minor - vb.minor || va.patch - vb.patch || comparePre(va.pre, vb.pre);
}
