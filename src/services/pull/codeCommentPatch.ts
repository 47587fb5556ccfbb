import type { Readable } from 'node:stream';

/** Gitea's `[ui] CODE_COMMENT_LINES`: how many diff lines a code comment keeps above the commented line. */
export const CODE_COMMENT_LINES = 4;

/** Past this many bytes of a pull request diff the hunk of a code comment is not looked for (it stays empty). */
const MAX_DIFF_BYTES = 8 * 1024 * 1024;

/**
 * Reads a whole-diff stream (`git diff` of the pull request) and splits it per file: each section under the
 * paths its `--- a/…` and `+++ b/…` lines name. Empty when the diff is larger than can be scanned cheaply.
 */
export async function fileDiffsOf(diff: Readable): Promise<Map<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of diff) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    size += buf.length;
    if (size > MAX_DIFF_BYTES) {
      diff.destroy();
      return new Map();
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const files = new Map<string, string>();
  for (const section of text.split(/^(?=diff --git )/m)) {
    const body = section.replace(/\n$/, '');
    for (const line of section.split('\n', 8)) {
      if (line.startsWith('+++ b/')) files.set(line.slice(6), body);
      else if (line.startsWith('--- a/') && !files.has(line.slice(6))) files.set(line.slice(6), body);
    }
  }
  return files;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const DIFF_HEAD = 'diff --git ';

const isHeader = (line: string, inHunk: boolean): boolean =>
  line.startsWith(DIFF_HEAD) || (!inHunk && (line.startsWith('---') || line.startsWith('+++')));

/**
 * Gitea's CutDiffAroundLine: from a one-file diff, the headers and the hunk holding `line` (on the old side when
 * `old`), cut to the commented line and the `numberOfLines` lines above it, with the hunk header recomputed.
 * '' when the line is 0 or in no hunk.
 */
export function cutDiffAroundLine(diff: string, line: number, old: boolean, numberOfLines = CODE_COMMENT_LINES): string {
  if (line === 0 || numberOfLines === 0) return '';
  const hunk: string[] = [];
  let currentLine = 0;
  let otherLine = 0;
  let headerLines = 0;
  let inHunk = false;
  for (const lof of diff.split('\n')) {
    if (isHeader(lof, inHunk)) {
      if (lof.startsWith(DIFF_HEAD)) inHunk = false;
      hunk.push(lof);
      headerLines++;
    }
    if (currentLine > line) break;
    if (lof.startsWith('@@')) {
      inHunk = true;
      if (hunk.length > headerLines) break;
      const m = HUNK.exec(lof);
      if (!m) continue;
      const [beginOld, endOld, beginNew, endNew] = [m[1], m[2], m[3], m[4]].map((v) => (v === undefined ? 0 : Number(v))) as [
        number,
        number,
        number,
        number,
      ];
      const begin = old ? beginOld : beginNew;
      const end = (old ? endOld : endNew) + begin;
      otherLine = old ? beginNew : beginOld;
      if (begin <= line && end >= line) {
        hunk.push(lof);
        currentLine = begin;
      }
    } else if (hunk.length > headerLines) {
      hunk.push(lof);
      const c = lof.charAt(0);
      if (c === '+') {
        if (old) otherLine++;
        else currentLine++;
      } else if (c === '-') {
        if (old) currentLine++;
        else otherLine++;
      } else if (c !== '\\') {
        currentLine++;
        otherLine++;
      }
    }
  }
  if (currentLine === 0) return '';
  if (hunk.length - headerLines - 1 <= numberOfLines) return hunk.join('\n');
  let oldBegin = old ? currentLine : otherLine;
  let newBegin = old ? otherLine : currentLine;
  let oldCount = 0;
  let newCount = 0;
  const kept = hunk.slice(hunk.length - numberOfLines - 1);
  for (let i = hunk.length - 1; i >= hunk.length - numberOfLines; i--) {
    const c = (hunk[i] ?? '').charAt(0);
    if (c === '+') {
      newBegin--;
      newCount++;
    } else if (c === '-') {
      oldBegin--;
      oldCount++;
    } else {
      oldBegin--;
      newBegin--;
      newCount++;
      oldCount++;
    }
  }
  kept[0] = `@@ -${oldBegin},${oldCount} +${newBegin},${newCount} @@`;
  return [...hunk.slice(0, headerLines), ...kept].join('\n');
}

/** Gitea's patch2diff: the diff hunk a PullReviewComment shows (the stored patch from its first hunk header on). */
export function diffHunkOf(patch: string): string {
  const parts = patch.split('\n@@');
  return parts.length === 2 ? `@@${parts[1]}` : '';
}

/**
 * The file line at GitHub's diff `position` in a one-file diff: the line `position` lines below the first `@@`
 * hunk header (the line under it is 1; later hunk headers count as lines too, but are no place to comment). A
 * removed line is on the old side; an added or context line on the new side. Null when `position` is not a
 * commentable line of the diff.
 */
export function lineAtDiffPosition(diff: string, position: number): { old: boolean; line: number } | null {
  if (!Number.isSafeInteger(position) || position < 1) return null;
  const lines = diff.split('\n');
  const first = lines.findIndex((l) => l.startsWith('@@'));
  if (first < 0 || first + position >= lines.length) return null;
  let oldLine = 0;
  let newLine = 0;
  for (let i = first; i <= first + position; i++) {
    const l = lines[i] ?? '';
    const hunk = HUNK.exec(l);
    if (hunk) {
      if (i === first + position) return null;
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[3]);
      continue;
    }
    const at = i === first + position;
    const c = l.charAt(0);
    if (c === '-') {
      if (at) return { old: true, line: oldLine };
      oldLine++;
    } else if (c === '+') {
      if (at) return { old: false, line: newLine };
      newLine++;
    } else if (c === ' ' || l === '') {
      // An empty line is a context line whose leading space an editor trimmed.
      if (at) return { old: false, line: newLine };
      oldLine++;
      newLine++;
    } else if (at) return null; // "\ No newline at end of file"
  }
  return null;
}
