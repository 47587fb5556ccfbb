// The status check contexts a pull request requires (its base branch's protection rule), for GitHub's
// StatusContext.isRequired / CheckRun.isRequired.
import DataLoader from 'dataloader';
import type { ServiceContext } from '../context.ts';
import { firstMatchingRule, sortRules } from '../protection/rule.ts';
import { pullReadWhere } from './visibility.ts';

/** A pull request by id, or by repository and number. */
export type PullKey = { pullId: number } | { repoId: number; index: number };

const keyOf = (k: PullKey) => ('pullId' in k ? `id:${k.pullId}` : `n:${k.repoId}:${k.index}`);

/**
 * Per request: the required status check context patterns of pull requests (those of the rule protecting the base
 * branch when it requires status checks, else none), in two queries for every pull request asked at once; null for
 * a pull request that does not exist or that the viewer may not read (the read policy of pull requests). What is
 * required is what the pull request's merge box shows to its readers; the rule itself stays with admins.
 */
export function requiredChecksLoader(cx: ServiceContext): DataLoader<PullKey, string[] | null, string> {
  return new DataLoader(
    async (keys: readonly PullKey[]) => {
      const pulls = await cx.db.pullRequest.findMany({
        where: {
          AND: [pullReadWhere(cx), { OR: keys.map((k) => ('pullId' in k ? { id: k.pullId } : { baseRepoId: k.repoId, index: k.index })) }],
        },
        select: { id: true, baseRepoId: true, index: true, baseBranch: true },
      });
      const repoIds = [...new Set(pulls.map((p) => p.baseRepoId))];
      const rows = repoIds.length ? await cx.db.protectedBranch.findMany({ where: { repoId: { in: repoIds } } }) : [];
      const patternsOf = (pull: (typeof pulls)[number]) => {
        const rule = firstMatchingRule(sortRules(rows.filter((r) => r.repoId === pull.baseRepoId)), pull.baseBranch);
        return rule?.row.enableStatusCheck ? rule.statusCheckContexts : [];
      };
      return keys.map((k) => {
        const pull = pulls.find((p) => ('pullId' in k ? p.id === k.pullId : p.baseRepoId === k.repoId && p.index === k.index));
        return pull ? patternsOf(pull) : null;
      });
    },
    { cacheKeyFn: keyOf },
  );
}
