import { describe, expect, it } from 'vitest';
import {
  expandTemplate,
  isExcluded,
  parseTemplateRules,
  sanitizeTemplatePath,
  templateExpansions,
} from '../../../src/services/repo/templateExpand.ts';

const vars = templateExpansions({
  repoName: 'HTTPServer-tool',
  repoOwner: 'Alice',
  repoDescription: 'd',
  repoLink: '/Alice/HTTPServer-tool',
  repoHttpsUrl: 'https://h/Alice/HTTPServer-tool.git',
  repoSshUrl: 'git@h:Alice/HTTPServer-tool.git',
  templateName: 'tpl',
  templateOwner: 'bob',
  templateDescription: '',
  templateLink: '/bob/tpl',
  templateHttpsUrl: 'https://h/bob/tpl.git',
  templateSshUrl: 'git@h:bob/tpl.git',
  now: new Date('2026-03-07T12:00:00Z'),
});

describe("Gitea's template expansion", () => {
  it('has the variables and transformed forms Gitea has', () => {
    expect(expandTemplate('$YEAR-$MONTH-$DAY $MONTH_ENGLISH_UPPER', vars)).toBe('2026-03-07 MARCH');
    expect(expandTemplate('${REPO_NAME_SNAKE} ${REPO_NAME_KEBAB} ${REPO_NAME_CAMEL} ${REPO_NAME_PASCAL}', vars)).toBe(
      'http_server_tool http-server-tool httpServerTool HttpServerTool',
    );
    expect(expandTemplate('$REPO_OWNER_LOWER $TEMPLATE_OWNER_TITLE $REPO_SSH_URL', vars)).toBe('alice Bob git@h:Alice/HTTPServer-tool.git');
    expect(vars.has('REPO_LINK_UPPER')).toBe(false);
  });

  it("follows Go's os.Expand: unknown names become the bare name, $$ and ${} are special, a lone $ stays", () => {
    expect(expandTemplate('a $NOPE ${NOPE} b', vars)).toBe('a NOPE NOPE b');
    expect(expandTemplate('$$ $1 ${} ${unclosed', vars)).toBe('$ 1  unclosed');
    expect(expandTemplate('cost: $ 5, end $', vars)).toBe('cost: $ 5, end $');
    expect(expandTemplate('$REPO_NAME.md', vars)).toBe('HTTPServer-tool.md');
  });

  it('sanitizes expanded paths as Gitea filePathSanitize', () => {
    expect(sanitizeTemplatePath('a/b:c?/con/..x/.git/ ok ')).toBe('a/b_c_/_/__x/_git/ok');
    expect(sanitizeTemplatePath('/x//y/')).toBe('x/y');
  });

  it('parses [expand] and [exclude] sections, skipping comments and bad globs; excluding a directory excludes its files', () => {
    const rules = parseTemplateRules('# c\n*.md\n[bad\n[exclude]\nbuild\n  **/*.tmp  \n[expand]\nsrc/**\n');
    expect(rules.expand.map((m) => [m('README.md'), m('docs/a.md'), m('src/a/b.go')])).toEqual([
      [true, false, false],
      [false, false, true],
    ]);
    expect(isExcluded(rules, 'build/out/x.bin')).toBe(true);
    expect(isExcluded(rules, 'src/x.tmp')).toBe(true);
    expect(isExcluded(rules, 'buildings/x')).toBe(false);
  });
});
