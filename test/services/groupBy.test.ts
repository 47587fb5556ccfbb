import { describe, expect, it } from 'vitest';
import { groupBy } from '../../src/groupBy.ts';

describe('groupBy', () => {
  const rows = [
    { id: 1, issueId: 7, body: 'a' },
    { id: 2, issueId: 3, body: 'b' },
    { id: 3, issueId: 7, body: 'c' },
    { id: 4, issueId: 3, body: 'd' },
  ];

  it('keeps each list in the items order and the keys in first-seen order', () => {
    const groups = groupBy(rows, (r) => r.issueId);
    expect([...groups.keys()]).toEqual([7, 3]);
    expect(groups.get(7)?.map((r) => r.id)).toEqual([1, 3]);
    expect(groups.get(3)?.map((r) => r.id)).toEqual([2, 4]);
    expect(groups.get(7)?.[0]).toBe(rows[0]);
  });

  it('maps what the lists hold', () => {
    const groups = groupBy(
      rows,
      (r) => r.issueId,
      (r) => r.body,
    );
    expect(Object.fromEntries(groups)).toEqual({ 7: ['a', 'c'], 3: ['b', 'd'] });
  });

  it('leaves out items whose key is undefined, but not other falsy keys', () => {
    const groups = groupBy([0, 1, 2, 3], (n) => (n === 2 ? undefined : n % 2));
    expect(Object.fromEntries(groups)).toEqual({ 0: [0], 1: [1, 3] });
  });
});
