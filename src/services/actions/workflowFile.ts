// A workflow file as Gitea's jobparser reads it: triggers, jobs with needs/if/runs-on, and the matrix split into
// one job per combination, each with its own single-job workflow (what FetchTask sends to the runner).
import { yamlModule } from '../../lazyPackage.ts';

/** One trigger's filters (`on.push.branches`, …); absent lists do not filter. */
export interface TriggerFilter {
  branches?: string[];
  branchesIgnore?: string[];
  tags?: string[];
  tagsIgnore?: string[];
  paths?: string[];
  pathsIgnore?: string[];
  types?: string[];
  /** workflow_dispatch inputs: name → default. */
  inputs?: Record<string, string>;
  /** schedule: cron expressions. */
  cron?: string[];
}

/** One row-to-be of action_run_job. */
export interface JobSpec {
  jobId: string;
  name: string;
  needs: string[];
  runsOn: string[];
  /** Single-job workflow YAML. */
  payload: string;
}

export interface ParsedWorkflow {
  name: string;
  runName: string;
  on: Map<string, TriggerFilter>;
  jobs: JobSpec[];
}

type Doc = Record<string, unknown>;

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | undefined =>
  v === undefined || v === null ? undefined : (Array.isArray(v) ? v : [v]).map((x) => String(x));

function triggerFilter(v: unknown): TriggerFilter {
  if (Array.isArray(v)) return { cron: v.filter(isObject).map((s) => String(s.cron ?? '')) };
  if (!isObject(v)) return {};
  const inputs = isObject(v.inputs)
    ? Object.fromEntries(
        Object.entries(v.inputs).map(([k, spec]) => [k, isObject(spec) && spec.default !== undefined ? String(spec.default) : '']),
      )
    : undefined;
  return {
    branches: strings(v.branches),
    branchesIgnore: strings(v['branches-ignore']),
    tags: strings(v.tags),
    tagsIgnore: strings(v['tags-ignore']),
    paths: strings(v.paths),
    pathsIgnore: strings(v['paths-ignore']),
    types: strings(v.types),
    inputs,
  };
}

function triggers(on: unknown): Map<string, TriggerFilter> {
  if (typeof on === 'string') return new Map([[on, {}]]);
  if (Array.isArray(on)) return new Map(on.map((e) => [String(e), {}]));
  if (isObject(on)) return new Map(Object.entries(on).map(([e, v]) => [e, triggerFilter(v)]));
  return new Map();
}

/** The matrix combinations (strategy.matrix with include/exclude); [{}] without a matrix. */
export function matrixCombinations(matrix: unknown): Array<Record<string, unknown>> {
  if (!isObject(matrix)) return [{}];
  const axes = Object.entries(matrix).filter(([k, v]) => k !== 'include' && k !== 'exclude' && Array.isArray(v)) as Array<
    [string, unknown[]]
  >;
  let combos: Array<Record<string, unknown>> = [{}];
  for (const [key, values] of axes) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  if (!axes.length) combos = [];
  const matches = (combo: Record<string, unknown>, pattern: Doc) =>
    Object.entries(pattern).every(([k, v]) => yamlModule().stringify(combo[k]) === yamlModule().stringify(v));
  const exclude = Array.isArray(matrix.exclude) ? matrix.exclude.filter(isObject) : [];
  combos = combos.filter((c) => !exclude.some((e) => matches(c, e)));
  for (const inc of Array.isArray(matrix.include) ? matrix.include.filter(isObject) : []) {
    const axisKeys = axes.map(([k]) => k);
    const base = Object.fromEntries(Object.entries(inc).filter(([k]) => axisKeys.includes(k)));
    const extended = combos.filter((c) => Object.keys(base).length > 0 && matches(c, base));
    if (extended.length) for (const c of extended) Object.assign(c, inc);
    else combos.push({ ...inc });
  }
  return combos.length ? combos : [{}];
}

/** `${{ matrix.x }}` in a string, with the combination's values (the only expressions resolved at parse time). */
const interpolate = (s: string, combo: Record<string, unknown>): string =>
  s.replace(/\$\{\{\s*matrix\.([\w-]+)\s*\}\}/g, (_m, key: string) => (combo[key] === undefined ? '' : String(combo[key])));

function splitJob(doc: Doc, id: string, job: Doc): JobSpec[] {
  const strategy = isObject(job.strategy) ? job.strategy : {};
  const combos = matrixCombinations(strategy.matrix);
  return combos.map((combo) => {
    const values = Object.values(combo).map((v) => (isObject(v) || Array.isArray(v) ? JSON.stringify(v) : String(v)));
    const baseName = typeof job.name === 'string' ? interpolate(job.name, combo) : id;
    const name =
      values.length && !(typeof job.name === 'string' && job.name.includes('${{')) ? `${baseName} (${values.join(', ')})` : baseName;
    const single: Doc = { ...job, name };
    delete single.needs;
    if (Object.keys(combo).length)
      single.strategy = { ...strategy, matrix: Object.fromEntries(Object.entries(combo).map(([k, v]) => [k, [v]])) };
    const payloadDoc: Doc = {};
    for (const key of ['name', 'on', 'env', 'defaults', 'permissions', 'run-name']) if (doc[key] !== undefined) payloadDoc[key] = doc[key];
    payloadDoc.jobs = { [id]: single };
    return {
      jobId: id,
      name: name.slice(0, 255),
      needs: strings(job.needs) ?? [],
      runsOn: (strings(job['runs-on']) ?? []).map((l) => interpolate(l, combo)).filter(Boolean),
      payload: yamlModule().stringify(payloadDoc),
    };
  });
}

/** Parses a workflow file; null when it is not valid YAML or has no jobs (Gitea skips such files with a warning). */
export function parseWorkflow(content: string): ParsedWorkflow | null {
  let doc: unknown;
  try {
    doc = yamlModule().parse(content);
  } catch {
    return null;
  }
  if (!isObject(doc) || !isObject(doc.jobs)) return null;
  const jobs = Object.entries(doc.jobs).flatMap(([id, job]) => (isObject(job) ? splitJob(doc, id, job) : []));
  if (!jobs.length) return null;
  return {
    name: typeof doc.name === 'string' ? doc.name : '',
    runName: typeof doc['run-name'] === 'string' ? doc['run-name'] : '',
    on: triggers(doc.on ?? doc.true),
    jobs,
  };
}

function singleJob(payload: string): Doc | null {
  const doc: unknown = yamlModule().parse(payload);
  if (!isObject(doc) || !isObject(doc.jobs)) return null;
  const job = Object.values(doc.jobs)[0];
  return isObject(job) ? job : null;
}

/** The `if` of a single-job workflow ("" = success()). */
export function jobIf(payload: string): string {
  const cond = singleJob(payload)?.if;
  return cond === undefined || cond === null ? '' : String(cond);
}

/** The steps a job will run, named as the runner reports them (name, else `run`/`uses`). */
export function stepNames(payload: string): string[] {
  const job = singleJob(payload);
  if (!job || !Array.isArray(job.steps)) return [];
  return job.steps.map((s: unknown, i: number) => {
    if (!isObject(s)) return `Step ${i + 1}`;
    if (typeof s.name === 'string') return s.name;
    if (typeof s.run === 'string') return `Run ${s.run.split('\n')[0]}`;
    if (typeof s.uses === 'string') return `Run ${s.uses}`;
    return `Step ${i + 1}`;
  });
}
