// Every REST operation Gitea has is one we serve (issue #33): our route table against Gitea's operation list
// (giteaOperations.txt, from Gitea's swagger.v1.json). The operations still missing are listed in giteaMissing.txt,
// a list that may only shrink: an operation that goes missing fails, and so does a listed one that is now served.
// `UPDATE_GITEA_MISSING=1 npx vitest run test/rest/giteaCoverage.test.ts` rewrites the list; its diff must only lose lines.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/rest/routes/index.ts';

const lines = (file: string): string[] =>
  readFileSync(path.join(import.meta.dirname, file), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));

/** `METHOD /path` with every path parameter written `{}` (Gitea and we name some differently). */
const normalize = (method: string, p: string): string => `${method} ${p.replace(/\{[^}]+\}/g, '{}')}`;

describe("Gitea's REST operations", () => {
  const ours = new Set(allRoutes.map((r) => normalize(r.method, r.path)));
  const gitea = lines('giteaOperations.txt');
  const missing = gitea.filter((l) => {
    const [method = '', p = ''] = l.split(' ');
    return !ours.has(normalize(method, p));
  });
  const MISSING = path.join(import.meta.dirname, 'giteaMissing.txt');
  if (process.env.UPDATE_GITEA_MISSING === '1') {
    const header = readFileSync(MISSING, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('#'));
    writeFileSync(MISSING, [...header, ...missing].join('\n') + '\n');
  }

  it('reads all 482 of Gitea’s operations', () => {
    expect(gitea).toHaveLength(482);
    console.log(`Gitea REST coverage: ${gitea.length - missing.length} of ${gitea.length} operations (${missing.length} missing)`);
  });
  it('serves every operation that is not listed as missing', () => {
    const listed = new Set(lines('giteaMissing.txt'));
    expect(missing.filter((l) => !listed.has(l))).toEqual([]);
  });
  it('lists no operation that is now served', () => {
    const now = new Set(missing);
    expect(lines('giteaMissing.txt').filter((l) => !now.has(l))).toEqual([]);
  });
});
