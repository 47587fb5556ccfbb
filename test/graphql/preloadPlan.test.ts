import type { GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import { withPreloaded, type Fill, type Preloaders } from '../../src/graphql/preload/plan.ts';
import type { ServiceContext } from '../../src/services/context.ts';

/*
 * withPreloaded's levels and deferred work (src/graphql/preload/plan.ts), with fills that record what they saw: a
 * fill's deferred work runs beside the level below it, is done before the root's rows are handed out, and a
 * failure of it fails the whole load (not an unhandled rejection).
 */
type Row = Record<string, unknown>;

const cx = { loaders: { userById: null } } as unknown as ServiceContext;
/** The preloaders here read no selection: the resolve info is not looked at. */
const info = {} as GraphQLResolveInfo;
const query = { include: { issues: { include: { comments: true } } } };
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Repository.issues (deferring `later` on its rows) and Issue.comments (recording what the issues carried then). */
function preloaders(later: (issues: Row[]) => Promise<unknown>, seen: unknown[]): Preloaders {
  const issues: Fill = async (_cx, parents, _users, defer) => {
    const rows = parents.map((p) => ({ id: (p.id as number) * 10 }));
    parents.forEach((p, i) => (p.issues = [rows[i]]));
    defer(later(rows));
  };
  const comments: Fill = async (_cx, parents) => {
    seen.push(...parents.map((p) => p.late));
    await tick(20);
    for (const p of parents) p.comments = [{ body: `on ${String(p.id)}` }];
  };
  return { Repository: { issues: () => issues }, Issue: { comments: () => comments } };
}

describe('withPreloaded', () => {
  it('runs a fill’s deferred work beside the level below and finishes it before handing the rows out', async () => {
    const seen: unknown[] = [];
    const later = async (issues: Row[]) => {
      await tick(5);
      for (const i of issues) i.late = true;
    };
    const roots = await withPreloaded(cx, info, 'Repository', query, preloaders(later, seen), (q) => {
      // The preloaded relations are taken out of the query the root runs.
      expect(q).toEqual({ include: {} });
      return Promise.resolve([{ id: 1 }, { id: 2 }]);
    });
    // The comments' fill ran before the deferred work was done, and both were done when the rows came back.
    expect(seen).toEqual([undefined, undefined]);
    expect(roots).toEqual([
      { id: 1, issues: [{ id: 10, late: true, comments: [{ body: 'on 10' }] }] },
      { id: 2, issues: [{ id: 20, late: true, comments: [{ body: 'on 20' }] }] },
    ]);
  });

  it('fails with the deferred work’s error, after the levels, and leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const seen: unknown[] = [];
      const failing = () => Promise.reject(new Error('reactions could not be read'));
      const load = withPreloaded(cx, info, 'Repository', query, preloaders(failing, seen), () => Promise.resolve([{ id: 1 }]));
      await expect(load).rejects.toThrow('reactions could not be read');
      // The level below still ran (the failure waited for it), and nothing was left unhandled meanwhile.
      expect(seen).toEqual([undefined]);
      await tick(10);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
