import { describe, expect, it } from 'vitest';
import { everyUnitRows, hasEveryUnit, teamUnitModes } from '../../src/permissions/teamUnits.ts';
import { ALL_UNITS } from '../../src/permissions/units.ts';

describe('teams that have every unit (Gitea HasAdminAccess), in one place', () => {
  it('admin and owner teams have every unit; others only their rows', () => {
    expect(hasEveryUnit('ADMIN')).toBe(true);
    expect(hasEveryUnit('OWNER')).toBe(true);
    expect(hasEveryUnit('WRITE')).toBe(false);
    expect(hasEveryUnit('NONE')).toBe(false);
  });

  it('reports every unit at the authority for admin teams (units_map), the rows otherwise', () => {
    const rows = [{ type: 'CODE' as const, accessMode: 'READ' as const }];
    expect(teamUnitModes({ authorize: 'ADMIN', units: rows })).toEqual(ALL_UNITS.map((type) => ({ type, accessMode: 'ADMIN' })));
    expect(teamUnitModes({ authorize: 'NONE', units: rows })).toEqual(rows);
  });

  it('stores the authority on every unit, read on the external tracker and wiki', () => {
    const rows = everyUnitRows('OWNER');
    expect(rows.map((r) => r.type)).toEqual([...ALL_UNITS]);
    expect(rows.filter((r) => r.accessMode === 'READ').map((r) => r.type)).toEqual(['EXT_WIKI', 'EXT_ISSUES']);
    expect(rows.filter((r) => r.accessMode === 'OWNER')).toHaveLength(ALL_UNITS.length - 2);
  });
});
