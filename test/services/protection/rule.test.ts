import { describe, expect, it } from 'vitest';
import { filePatterns, isRuleNameSpecial, matchesAnyFile, ruleMatches } from '../../../src/services/protection/rule.ts';
import { combinedState, latestPerContext, requiredChecksState } from '../../../src/services/status/rollup.ts';

describe('protected branch rule names (Gitea ProtectedBranch.Match)', () => {
  it('plain names match case-insensitively; patterns are globs with / as separator', () => {
    expect(isRuleNameSpecial('main')).toBe(false);
    expect(isRuleNameSpecial('release/*')).toBe(true);
    expect(ruleMatches('Main', 'main')).toBe(true);
    expect(ruleMatches('main', 'main2')).toBe(false);
    expect(ruleMatches('release/*', 'release/v1')).toBe(true);
    expect(ruleMatches('release/*', 'release/v1/hotfix')).toBe(false);
    expect(ruleMatches('release/**', 'release/v1/hotfix')).toBe(true);
    expect(ruleMatches('feature-?', 'feature-a')).toBe(true);
    expect(ruleMatches('{main,dev}', 'dev')).toBe(true);
  });

  it('file patterns are lower-cased globs with . and / as separators', () => {
    const patterns = filePatterns(' *.md ; docs/** ;');
    expect(matchesAnyFile(patterns, 'README.MD')).toBe(true);
    expect(matchesAnyFile(patterns, 'sub/readme.md')).toBe(false);
    expect(matchesAnyFile(patterns, 'docs/a/b.txt')).toBe(true);
    expect(matchesAnyFile(patterns, 'src/a.ts')).toBe(false);
  });
});

describe('commit status roll-up (Gitea CalcCommitStatus, MergeRequiredContextsCommitStatus)', () => {
  const s = (context: string, state: string, index: number) => ({ context, contextHash: context, state, index });

  it('the latest status of each context counts, the worst state wins', () => {
    const latest = latestPerContext([s('ci', 'failure', 1), s('lint', 'success', 2), s('ci', 'success', 3)]);
    expect(latest.map((x) => x.state)).toEqual(['success', 'success']);
    expect(combinedState(latest)).toBe('success');
    expect(combinedState([s('a', 'success', 1), s('b', 'pending', 2), s('c', 'warning', 3)])).toBe('warning');
    expect(combinedState([s('a', 'failure', 1), s('b', 'error', 2)])).toBe('error');
    expect(combinedState([])).toBe('');
  });

  it('every required pattern needs a matching status, and all matched must succeed', () => {
    expect(requiredChecksState([], ['ci/*'])).toBe('pending');
    expect(requiredChecksState([s('lint', 'success', 1)], ['ci/*'])).toBe('pending');
    expect(requiredChecksState([s('ci/a', 'success', 1), s('lint', 'failure', 2)], ['ci/*'])).toBe('success');
    expect(requiredChecksState([s('ci/a', 'success', 1), s('ci/b', 'failure', 2)], ['ci/*'])).toBe('failure');
    expect(requiredChecksState([s('lint', 'failure', 1)], [])).toBe('failure');
  });
});
