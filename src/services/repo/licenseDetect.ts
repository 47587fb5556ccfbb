// License detection from file text (what Gitea's license updater does with google/licenseclassifier): the text,
// normalised to words, is compared with each SPDX license text (spdx-license-list) by the Dice coefficient of
// their word-bigram sets; the best match above the threshold names the license. SPDX ids that share one text
// (GPL-3.0, GPL-3.0-only, GPL-3.0-or-later) are reported by the shortest, as licenseclassifier names them.
import { spdxLicenses } from '../../lazyPackage.ts';

/** How similar a file must be to a license text to be that license. */
const THRESHOLD = 0.85;
/** Larger files are not license texts (the longest SPDX text is about 70 KB). */
export const MAX_LICENSE_FILE_SIZE = 256 * 1024;

/** A license text as a set of word bigrams. */
interface Shingles {
  ids: string[];
  set: Set<string>;
}

/** Lower-case words, without the `<placeholders>` of the templates, copyright lines or punctuation. */
function words(text: string, template: boolean): string[] {
  const lines = (template ? text.replace(/<[^>\n]*>/g, ' ') : text)
    .split('\n')
    .filter((line) => !/^\s*(?:copyright\b|\(c\)|©)/i.test(line));
  return (
    lines
      .join(' ')
      .toLowerCase()
      .replace(/licence/g, 'license')
      .match(/[a-z0-9]+/g) ?? []
  );
}

function shingles(list: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (let i = 1; i < list.length; i++) set.add(`${list[i - 1] as string} ${list[i] as string}`);
  return set;
}

let corpus: Shingles[] | null = null;

/** The SPDX texts, each distinct text once with all its ids (built on first use). */
function licenses(): Shingles[] {
  if (corpus) return corpus;
  const byText = new Map<string, string[]>();
  for (const [id, entry] of Object.entries(spdxLicenses())) {
    const key = words(entry.licenseText, true).join(' ');
    if (key) byText.set(key, [...(byText.get(key) ?? []), id]);
  }
  corpus = [...byText].map(([key, ids]) => ({
    ids: ids.sort((a, b) => a.length - b.length || (a < b ? -1 : 1)),
    set: shingles(key.split(' ')),
  }));
  return corpus;
}

/** The SPDX id of the license `text` is, or null. */
export function detectLicense(text: string): string | null {
  const set = shingles(words(text, false));
  if (!set.size) return null;
  let best: { id: string; score: number } | null = null;
  for (const license of licenses()) {
    const total = set.size + license.set.size;
    // The Dice coefficient is at most 2·min/(a+b): skip texts whose length alone rules them out.
    if ((2 * Math.min(set.size, license.set.size)) / total < THRESHOLD) continue;
    let shared = 0;
    const [small, large] = set.size < license.set.size ? [set, license.set] : [license.set, set];
    for (const s of small) if (large.has(s)) shared++;
    const score = (2 * shared) / total;
    if (score >= THRESHOLD && (!best || score > best.score)) best = { id: license.ids[0] as string, score };
  }
  return best?.id ?? null;
}

/** Whether a root file name is where a license is kept (LICENSE, LICENCE.md, COPYING, UNLICENSE, …). */
export function isLicenseFileName(name: string): boolean {
  return /^(?:un)?licen[cs]e(?:[-_.].*)?$|^copying(?:[-_.].*)?$/i.test(name);
}
