import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_ROWS } from '../../src/db/filters.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { PROVIDERS } from '../helpers/db.ts';
import { createOrgAs } from '../helpers/org.ts';

/** Every .ts file under `dir`, generated code excluded. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'generated' ? [] : sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/**
 * "Nothing" must stay nothing wherever a read policy's filter lands. Prisma reads an empty OR as false only at the
 * top of a query; nested in AND or in a relation filter it is dropped (issue #10: a private team was readable
 * anonymously through `{ AND: [..., { OR: [] }] }`). Policies say "nothing" with NO_ROWS instead.
 */
describe.each(PROVIDERS)('empty filters (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
    const owner = await t.createUser('nrowner');
    await createOrgAs(t, owner, 'nrorg');
  });
  afterAll(() => t.close());

  it('an empty OR nested in AND matches everything (the trap)', async () => {
    expect(await t.db.user.count({ where: { OR: [] } })).toBe(0);
    expect(await t.db.user.count({ where: { AND: [{ name: 'nrowner' }, { OR: [] }] } })).toBe(1);
  });

  it('NO_ROWS matches nothing at the top, in AND, in a relation filter and in a relation count', async () => {
    expect(await t.db.team.count({ where: NO_ROWS })).toBe(0);
    expect(await t.db.team.count({ where: { AND: [{ name: 'Owners' }, NO_ROWS] } })).toBe(0);
    expect(await t.db.user.count({ where: { orgTeams: { some: { AND: [{ name: 'Owners' }, NO_ROWS] } } } })).toBe(0);
    const org = await t.db.user.findFirstOrThrow({
      where: { lowerName: 'nrorg' },
      select: { _count: { select: { orgTeams: { where: { AND: [{ name: 'Owners' }, NO_ROWS] } } } } },
    });
    expect(org._count.orgTeams).toBe(0);
    expect(await t.db.team.count({ where: { name: 'Owners' } })).toBe(1);
  });
});

describe('no empty OR in the sources', () => {
  it('src/ never writes `OR: []` (use NO_ROWS)', () => {
    const root = path.resolve(import.meta.dirname, '../../src');
    const offenders = sources(root).filter((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .some((line) => /OR: \[\]/.test(line) && !line.trim().startsWith('*')),
    );
    expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
  });
});
