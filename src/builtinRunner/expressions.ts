// The `${{ … }}` expressions of a workflow, as far as the built-in runner goes: property access into the contexts
// (github, env, matrix, secrets, vars, needs, steps, …), literals, `!`, `==`, `!=`, `&&`, `||`, parentheses and
// the status functions success(), failure(), always() and cancelled(). Anything else is an ExpressionError, which
// fails the step with its message.

export class ExpressionError extends Error {}

/** The job's status as the status functions see it. */
export type JobStatus = 'success' | 'failure' | 'cancelled';

export interface Scope {
  contexts: Record<string, unknown>;
  jobStatus: JobStatus;
}

type Node =
  | { kind: 'literal'; value: unknown }
  | { kind: 'context'; name: string }
  | { kind: 'member'; object: Node; key: Node }
  | { kind: 'call'; name: string }
  | { kind: 'not'; operand: Node }
  | { kind: 'binary'; op: '==' | '!=' | '&&' | '||'; left: Node; right: Node };

const STATUS_FUNCTIONS = ['success', 'failure', 'always', 'cancelled'];
const TOKEN = /\s*(?:('(?:[^']|'')*')|(-?\d+(?:\.\d+)?)|([A-Za-z_][\w-]*)|(==|!=|&&|\|\||[!().[\],*])|(\S))/y;

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const m = TOKEN.exec(source);
    if (!m) break;
    if (m[5]) throw new ExpressionError(`unsupported expression: unexpected '${m[5]}' in '${source}'`);
    const token = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (token !== undefined) tokens.push(token);
  }
  return tokens;
}

/** Recursive descent over the tokens: or → and → equality → unary → postfix. */
function parse(source: string): Node {
  const tokens = tokenize(source);
  let pos = 0;
  const unsupported = (what: string) => new ExpressionError(`unsupported expression: ${what} in '${source}'`);
  const peek = () => tokens[pos];
  const expect = (t: string) => {
    if (tokens[pos] !== t) throw unsupported(`expected '${t}'`);
    pos++;
  };
  const binary = (ops: Array<'==' | '!=' | '&&' | '||'>, next: () => Node) => (): Node => {
    let left = next();
    for (let op = peek(); op !== undefined && (ops as string[]).includes(op); op = peek()) {
      pos++;
      left = { kind: 'binary', op: op as '==', left, right: next() };
    }
    return left;
  };
  const primary = (): Node => {
    const t = tokens[pos++];
    if (t === undefined) throw unsupported('unexpected end');
    if (t === '(') {
      const inner = or();
      expect(')');
      return inner;
    }
    if (t.startsWith("'")) return { kind: 'literal', value: t.slice(1, -1).replace(/''/g, "'") };
    if (/^-?\d/.test(t)) return { kind: 'literal', value: Number(t) };
    if (t === 'true' || t === 'false') return { kind: 'literal', value: t === 'true' };
    if (t === 'null') return { kind: 'literal', value: null };
    if (!/^[A-Za-z_]/.test(t)) throw unsupported(`unexpected '${t}'`);
    if (peek() === '(') {
      if (!STATUS_FUNCTIONS.includes(t.toLowerCase())) throw unsupported(`function ${t}()`);
      expect('(');
      expect(')');
      return { kind: 'call', name: t.toLowerCase() };
    }
    return { kind: 'context', name: t.toLowerCase() };
  };
  const postfix = (): Node => {
    let node = primary();
    for (;;) {
      if (peek() === '.') {
        pos++;
        const key = tokens[pos++];
        if (key === undefined || !/^[A-Za-z_]/.test(key)) throw unsupported(`property '${key ?? ''}'`);
        node = { kind: 'member', object: node, key: { kind: 'literal', value: key } };
      } else if (peek() === '[') {
        pos++;
        const key = or();
        expect(']');
        node = { kind: 'member', object: node, key };
      } else return node;
    }
  };
  const unary = (): Node => {
    if (peek() === '!') {
      pos++;
      return { kind: 'not', operand: unary() };
    }
    return postfix();
  };
  const equality = binary(['==', '!='], unary);
  const and = binary(['&&'], equality);
  const or = binary(['||'], and);
  const node = or();
  if (pos < tokens.length) throw unsupported(`unexpected '${tokens[pos]}'`);
  return node;
}

/** GitHub's truthiness: false, 0, '', null (and undefined) are false. */
export function truthy(v: unknown): boolean {
  return !(v === false || v === 0 || v === '' || v === null || v === undefined || Number.isNaN(v));
}

/** GitHub's loose equality: strings case-insensitively, otherwise as numbers. */
function looseEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  const num = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'boolean' ? Number(v) : Number(v));
  if (typeof a === 'object' && a !== null) return a === b;
  return num(a) === num(b);
}

function evaluateNode(node: Node, scope: Scope): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'context':
      return scope.contexts[node.name] ?? null;
    case 'member': {
      const object = evaluateNode(node.object, scope);
      const key = evaluateNode(node.key, scope);
      if (typeof object !== 'object' || object === null) return null;
      const entries = Object.entries(object);
      // Property names are case-insensitive, as in GitHub's contexts.
      const found = entries.find(([k]) => k === String(key)) ?? entries.find(([k]) => k.toLowerCase() === String(key).toLowerCase());
      return found ? found[1] : null;
    }
    case 'call':
      if (node.name === 'always') return true;
      return scope.jobStatus === node.name;
    case 'not':
      return !truthy(evaluateNode(node.operand, scope));
    case 'binary': {
      const left = evaluateNode(node.left, scope);
      if (node.op === '&&') return truthy(left) ? evaluateNode(node.right, scope) : left;
      if (node.op === '||') return truthy(left) ? left : evaluateNode(node.right, scope);
      const equal = looseEquals(left, evaluateNode(node.right, scope));
      return node.op === '==' ? equal : !equal;
    }
  }
}

const usesStatus = (node: Node): boolean => {
  switch (node.kind) {
    case 'call':
      return true;
    case 'member':
      return usesStatus(node.object) || usesStatus(node.key);
    case 'not':
      return usesStatus(node.operand);
    case 'binary':
      return usesStatus(node.left) || usesStatus(node.right);
    default:
      return false;
  }
};

/** A value as it appears in a string: null is empty, objects are JSON. */
export function asText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Replaces each `${{ expr }}` in `text` by its value. @throws ExpressionError */
export function interpolate(text: string, scope: Scope): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, expr: string) => asText(evaluateNode(parse(expr), scope)));
}

/**
 * A step's `if` (with or without `${{ }}`; empty means success()). Without a status function it applies only while
 * the job succeeds, as in GitHub Actions. @throws ExpressionError
 */
export function evaluateIf(condition: string, scope: Scope): boolean {
  const source = condition
    .trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, '$1')
    .trim();
  if (!source) return scope.jobStatus === 'success';
  const node = parse(source);
  if (!usesStatus(node) && scope.jobStatus !== 'success') return false;
  return truthy(evaluateNode(node, scope));
}
