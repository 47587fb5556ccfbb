import { describe, expect, it } from 'vitest';
import { findReferences, findReferencesMarkdown } from '../../src/services/issue/references.ts';
import { namesReferences } from '../../src/services/issue/xref.ts';

/**
 * namesReferences answers most texts without scanning them (a text without `#N`, `!N` or an issue URL names no
 * issue): its answer must be the full scan's for every text, Markdown included.
 */
const ROOT = 'http://forge.test/';
const scanned = (plain: string, markdown: string) => findReferences(plain, ROOT).length > 0 || findReferencesMarkdown(markdown).length > 0;

describe('namesReferences (issue references in a title and a body)', () => {
  it.each([
    ['', 'no reference here', false],
    ['Fix the build', 'closes #12', true],
    ['see !5', '', true],
    ['', 'owner/repo#4 and more', true],
    [`${ROOT}owner/repo/issues/7`, '', true],
    ['', `${ROOT}owner/repo/issues/7 (a body's URL is a link, not a reference)`, false],
    [`${ROOT}owner/repo/pulls/8`, '', true],
    ['', '`#1` in code only', false],
    ['', '```\n#2\n```', false],
    ['', '[#3](http://x) a link', false],
    ['', '# a heading, #abc, #1a', false],
    ['', 'issue #_1 and #*2*', false],
  ])('title %j, body %j: %s', (plain, markdown, expected) => {
    expect(scanned(plain, markdown)).toBe(expected);
    expect(namesReferences(ROOT, plain, markdown)).toBe(expected);
  });

  it('agrees with the full scan on generated texts', () => {
    const parts = [
      '#',
      '!',
      '1',
      '#1',
      ' !2',
      '23',
      'a',
      ' ',
      '\n',
      '`',
      '```',
      '*',
      '_',
      '~~',
      '[',
      ']',
      '(',
      ')',
      '/',
      'o/r',
      'issues/',
      'pulls/',
      ROOT,
      'fixes ',
      '<b>',
      '    ',
    ];
    let seed = 42;
    const next = () => {
      seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5;
      return (seed ^ (seed >>> 13)) >>> 0;
    };
    let withReference = 0;
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + (next() % 12) }, () => parts[next() % parts.length]).join('');
      const [plain, markdown] = i % 2 ? [text, ''] : ['', text];
      const expected = scanned(plain, markdown);
      if (expected) withReference++;
      expect(namesReferences(ROOT, plain, markdown), JSON.stringify(text)).toBe(expected);
    }
    // The generated texts hold both kinds: a check that could not fail would be no check.
    expect(withReference).toBeGreaterThan(100);
    expect(withReference).toBeLessThan(2900);
  });
});
