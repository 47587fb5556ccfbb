import type { Models } from '../../db/client.ts';
import { ValidationError } from '../../errors.ts';
import { unitConfig, type UnitType } from '../../permissions/units.ts';
import { PULL_DEFAULTS, type PullSettings } from './pullSettings.ts';

type Config = Record<string, unknown>;

/** The unit fields of Gitea's EditRepoOption (src/services/repo/edit.ts): only those that are set change. */
export interface UnitsInput {
  hasCode?: boolean;
  hasIssues?: boolean;
  internalTracker?: { enableTimeTracker: boolean; allowOnlyContributorsToTrackTime: boolean; enableIssueDependencies: boolean };
  externalTracker?: { url: string; format: string; style: string; regexpPattern: string };
  hasWiki?: boolean;
  externalWiki?: { url: string };
  hasPullRequests?: boolean;
  pulls?: Partial<PullSettings>;
  hasProjects?: boolean;
  projectsMode?: 'repo' | 'owner' | 'all';
  hasReleases?: boolean;
  hasPackages?: boolean;
  hasActions?: boolean;
}

/** Gitea validation.IsValidExternalURL: an absolute http(s) URL. */
function isValidExternalUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '';
  } catch {
    return false;
  }
}

/** Gitea IsValidExternalTrackerURLFormat: a valid URL whose {user}/{repo}/{index} placeholders are well-formed. */
function isValidTrackerFormat(raw: string): boolean {
  if (!isValidExternalUrl(raw)) return false;
  for (const m of raw.matchAll(/(\{?)(?:user|repo|index)+?(\}?)/g)) {
    if ((m[1] === '{' || m[2] === '}') && (m[1] !== '{' || m[2] !== '}')) return false;
  }
  return true;
}

/** Gitea's update-style validation of the resulting pull-request settings. @throws ValidationError */
function validateUpdateStyle(c: PullSettings): void {
  if (c.defaultUpdateStyle !== 'merge' && c.defaultUpdateStyle !== 'rebase')
    throw new ValidationError('default update style must be merge or rebase');
  if (!c.allowMergeUpdate && !c.allowRebaseUpdate)
    throw new ValidationError('at least one pull request branch update style must be enabled');
  if ((c.defaultUpdateStyle === 'merge' && !c.allowMergeUpdate) || (c.defaultUpdateStyle === 'rebase' && !c.allowRebaseUpdate)) {
    throw new ValidationError('default update style must be enabled');
  }
}

/** Unit rows to write (type → config) and unit types to remove. */
export interface UnitPlan {
  upsert: Map<UnitType, Config>;
  remove: Set<UnitType>;
}

/**
 * Gitea updateRepoUnits, validated before anything is written: trackers and wikis with their URL checks,
 * code/projects/releases/packages/actions toggles, pull-request settings (applied to an enabled unit even
 * without has_pull_requests) and the update-style rules. internal_tracker/external_tracker need has_issues,
 * external_wiki needs has_wiki, projects_mode needs has_projects, as Gitea.
 * @throws ValidationError
 */
export function planUnits(units: readonly Models.RepoUnit[], input: UnitsInput): UnitPlan {
  const existing = new Map(units.map((u) => [u.type, unitConfig(u.config)]));
  const plan: UnitPlan = { upsert: new Map(), remove: new Set() };
  const toggle = (flag: boolean | undefined, type: UnitType, config: () => Config = () => ({})) => {
    if (flag === true) plan.upsert.set(type, config());
    else if (flag === false) plan.remove.add(type);
  };
  toggle(input.hasCode, 'CODE', () => existing.get('CODE') ?? {});
  if (input.hasIssues === true && input.externalTracker) {
    const t = input.externalTracker;
    if (!isValidExternalUrl(t.url)) throw new ValidationError('External tracker URL not valid');
    if (t.format !== '' && !isValidTrackerFormat(t.format)) throw new ValidationError('External tracker URL format not valid');
    plan.upsert.set('EXT_ISSUES', {
      externalTrackerURL: t.url,
      externalTrackerFormat: t.format,
      externalTrackerStyle: t.style,
      externalTrackerRegexpPattern: t.regexpPattern,
    });
    plan.remove.add('ISSUES');
  } else if (input.hasIssues === true) {
    const it = input.internalTracker;
    const config = it
      ? {
          enableTimetracker: it.enableTimeTracker,
          allowOnlyContributorsToTrackTime: it.allowOnlyContributorsToTrackTime,
          enableDependencies: it.enableIssueDependencies,
        }
      : (existing.get('ISSUES') ?? { enableTimetracker: true, allowOnlyContributorsToTrackTime: true, enableDependencies: true });
    plan.upsert.set('ISSUES', config);
    plan.remove.add('EXT_ISSUES');
  } else if (input.hasIssues === false) {
    plan.remove.add('ISSUES').add('EXT_ISSUES');
  }
  if (input.hasWiki === true && input.externalWiki) {
    if (!isValidExternalUrl(input.externalWiki.url)) throw new ValidationError('Invalid external wiki URL');
    plan.upsert.set('EXT_WIKI', { externalWikiURL: input.externalWiki.url });
    plan.remove.add('WIKI');
  } else if (input.hasWiki === true) {
    plan.upsert.set('WIKI', {});
    plan.remove.add('EXT_WIKI');
  } else if (input.hasWiki === false) {
    plan.remove.add('WIKI').add('EXT_WIKI');
  }
  const pullsGiven = input.pulls !== undefined && Object.keys(input.pulls).length > 0;
  if (input.hasPullRequests === false) {
    plan.remove.add('PULL_REQUESTS');
  } else if (input.hasPullRequests === true || (pullsGiven && existing.has('PULL_REQUESTS'))) {
    const current = existing.get('PULL_REQUESTS');
    const config = { ...PULL_DEFAULTS, ...(current ?? {}), ...(input.pulls ?? {}) } as PullSettings;
    const p = input.pulls ?? {};
    if (p.allowMergeUpdate !== undefined || p.allowRebaseUpdate !== undefined || p.defaultUpdateStyle !== undefined)
      validateUpdateStyle(config);
    plan.upsert.set('PULL_REQUESTS', { ...config });
  }
  toggle(input.hasProjects, 'PROJECTS', () => ({
    ...(existing.get('PROJECTS') ?? { projectsMode: 'all' }),
    ...(input.projectsMode ? { projectsMode: input.projectsMode } : {}),
  }));
  toggle(input.hasReleases, 'RELEASES');
  toggle(input.hasPackages, 'PACKAGES');
  toggle(input.hasActions, 'ACTIONS');
  return plan;
}
