// Our graph against GitHub's published schema (@octokit/graphql-schema) on every name both use (issue #32). The
// conflicts that remain are listed in githubConflicts.txt, a list that may only shrink: a new conflict fails, and
// so does a listed one that is gone (remove it from the list). Goal: an empty list.
// `UPDATE_GITHUB_CONFLICTS=1 npx vitest run test/graphql/githubSchema.test.ts` rewrites the list (after
// `npx tsx src/graphql/printSchema.ts`); review its diff: it must only lose lines.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { schema } from '@octokit/graphql-schema';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../src/paths.ts';
import { githubConflicts } from '../helpers/githubSchemaDiff.ts';

const LIST = path.join(import.meta.dirname, 'githubConflicts.txt');

function conflicts(): string[] {
  const ours = readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8');
  // GitHub's published SDL defines two fields twice; the schema is built as published.
  return githubConflicts(buildSchema(ours), buildSchema(schema.idl, { assumeValidSDL: true }));
}

/** The list's entries, each with the reason it stays (after `  # `) when GitHub's shape cannot hold a Gitea concept. */
function entries(): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const line of readFileSync(LIST, 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [entry = '', reason] = line.split(/\s+#\s+/, 2);
    out.set(entry, reason);
  }
  return out;
}
const listed = (): string[] => [...entries().keys()];

function rewriteList(found: string[]): void {
  const header = readFileSync(LIST, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('#'));
  const reasons = entries();
  const lines = [...found].sort().map((c) => (reasons.get(c) ? `${c}  # ${reasons.get(c)}` : c));
  writeFileSync(LIST, [...header, ...lines].join('\n') + '\n');
}

describe("the graph against GitHub's schema", () => {
  const found = conflicts();
  if (process.env.UPDATE_GITHUB_CONFLICTS === '1') rewriteList(found);
  it('has no conflict that is not already listed', () => {
    const known = new Set(listed());
    expect(found.filter((c) => !known.has(c))).toEqual([]);
  });
  it('prints how many conflicts remain to remove and how many stay with a reason', () => {
    const all = entries();
    const kept = [...all.values()].filter(Boolean).length;
    console.log(`GitHub schema conflicts: ${all.size - kept} to remove, ${kept} kept with a reason`);
    expect(kept).toBeLessThanOrEqual(all.size);
  });
  it('lists no conflict that is gone', () => {
    const now = new Set(found);
    expect(listed().filter((c) => !now.has(c))).toEqual([]);
  });
  it('finds the conflicts it is meant to find', () => {
    // The comparison itself: a field whose type differs, a missing argument, and a union where GitHub has an object.
    const ours = buildSchema('type Query { a: String! b(x: Int): Int  c: U } type Issue { id: ID! } union U = Issue enum E { X }');
    const theirs = buildSchema('type Query { a: URI b(x: Int, y: Int): Int c: Issue } type Issue { id: ID! } enum E { X Y } scalar URI');
    expect(githubConflicts(ours, theirs)).toEqual(
      [
        'Query.a: String! (GitHub: URI)',
        'Query.b(y:): missing argument (GitHub: Int)',
        'Query.c: U (GitHub: Issue)',
        'E.Y: missing enum value',
      ].sort(),
    );
  });
});
