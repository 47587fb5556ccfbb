import { describe, expect, it } from 'vitest';
import { evaluateIf, ExpressionError, interpolate, type JobStatus } from '../../src/builtinRunner/expressions.ts';
import { defaultEnv, parseFileCommand } from '../../src/builtinRunner/environment.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const contexts = {
  github: { sha: 'abc123', ref: 'refs/heads/main', event: { inputs: { level: 'high' } } },
  matrix: { node: 'a', 'os-name': 'linux' },
  env: { GREETING: 'hello' },
  secrets: { TOKEN: 's3cret' },
  steps: { cat: { outputs: { content: 'hi' }, outcome: 'success' } },
  needs: { build: { outputs: {}, result: 'failure' } },
};
const scope = (jobStatus: JobStatus = 'success') => ({ contexts, jobStatus });

/** The built-in runner's expressions: property access, literals, comparisons and the status functions only. */
describe('built-in runner expressions', () => {
  it('interpolates property access into the contexts', () => {
    expect(interpolate('${{ matrix.node }}-${{ env.GREETING }} at ${{github.sha}}', scope())).toBe('a-hello at abc123');
    expect(interpolate("${{ matrix['os-name'] }} ${{ matrix.os-name }}", scope())).toBe('linux linux');
    expect(interpolate('${{ steps.cat.outputs.content }} ${{ secrets.TOKEN }}', scope())).toBe('hi s3cret');
    expect(interpolate('[${{ matrix.missing }}] ${{ github.event.inputs }}', scope())).toBe('[] {"level":"high"}');
    expect(interpolate('${{ GITHUB.REF }}', scope())).toBe('refs/heads/main');
  });

  it('compares loosely and combines with && || !', () => {
    expect(interpolate("${{ github.ref == 'REFS/HEADS/MAIN' }}", scope())).toBe('true');
    expect(interpolate("${{ needs.build.result != 'success' && 'retry' || 'done' }}", scope())).toBe('retry');
    expect(interpolate('${{ !matrix.missing }} ${{ 1 == true }} ${{ null }}', scope())).toBe('true true ');
  });

  it('evaluates if: with the status functions, success() implied', () => {
    expect(evaluateIf('', scope())).toBe(true);
    expect(evaluateIf('', scope('failure'))).toBe(false);
    expect(evaluateIf("matrix.node == 'a'", scope('failure'))).toBe(false);
    expect(evaluateIf("${{ matrix.node == 'a' }}", scope())).toBe(true);
    expect(evaluateIf('failure()', scope('failure'))).toBe(true);
    expect(evaluateIf('always()', scope('cancelled'))).toBe(true);
    expect(evaluateIf('cancelled()', scope('cancelled'))).toBe(true);
    expect(evaluateIf('success() || failure()', scope('cancelled'))).toBe(false);
    expect(evaluateIf("failure() && steps.cat.outcome == 'success'", scope('failure'))).toBe(true);
  });

  it('refuses what it does not support, saying what', () => {
    expect(() => interpolate("${{ contains(github.ref, 'main') }}", scope())).toThrow(ExpressionError);
    expect(() => interpolate("${{ contains(github.ref, 'main') }}", scope())).toThrow('unsupported expression: function contains()');
    expect(() => interpolate('${{ github.* }}', scope())).toThrow(ExpressionError);
    expect(() => interpolate('${{ 1 + 2 }}', scope())).toThrow("unexpected '+'");
    expect(() => evaluateIf('(always()', scope())).toThrow("expected ')'");
  });

  it('gives steps the artifact toolkit variables: the runtime token (else the task token) and the results URL', () => {
    const paths = { workspace: '/w', temp: '/t', eventPath: '/e' };
    const env = defaultEnv({ server_url: 'http://forge:3000', token: 'tok', gitea_runtime_token: 'a.b.c' }, paths, 'r');
    expect(env).toMatchObject({
      ACTIONS_RUNTIME_TOKEN: 'a.b.c',
      ACTIONS_RESULTS_URL: 'http://forge:3000',
      ACTIONS_RUNTIME_URL: 'http://forge:3000/api/actions_pipeline/',
    });
    expect(defaultEnv({ server_url: 'http://forge:3000', token: 'tok' }, paths, 'r').ACTIONS_RUNTIME_TOKEN).toBe('tok');
  });

  it('reads $GITHUB_OUTPUT / $GITHUB_ENV files, multi-line values included', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'fg-fc-')), 'out');
    writeFileSync(file, 'a=1\nb=x=y\nlong<<EOF\nline 1\nline 2\nEOF\n\nc=\n');
    expect(parseFileCommand(file)).toEqual({ a: '1', b: 'x=y', long: 'line 1\nline 2', c: '' });
    writeFileSync(file, 'open<<END\nnever closed\n');
    expect(() => parseFileCommand(file)).toThrow('no closing "END"');
  });
});
