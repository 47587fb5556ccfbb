// Wiki page names against Gitea's own table (services/wiki/wiki_test.go): titles, web paths and git paths.
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.ts';
import {
  gitPathToWebPath,
  requireUsableWebPath,
  userTitleToWebPath,
  webPathFromRequest,
  webPathToGitPath,
  webPathToUserTitle,
} from '../../src/services/wiki/wikiPath.ts';

describe('wiki page names (Gitea wiki_path.go)', () => {
  it('titles to web paths', () => {
    const cases: Array<[expected: string, title: string]> = [
      ['unnamed', ''],
      ['unnamed', '.'],
      ['unnamed', '..'],
      ['wiki-name', 'wiki name'],
      ['title.md.-', 'title.md'],
      ['wiki-name.-', 'wiki-name'],
      ['the+wiki-name.-', 'the wiki-name'],
      ['a%2Fb', 'a/b'],
      ['a%25b', 'a%b'],
      ['home-of-and-%26-or-wiki-page%21', 'home of and & or wiki page!'],
    ];
    for (const [expected, title] of cases) expect(userTitleToWebPath(title), title).toBe(expected);
  });

  it('web paths to titles', () => {
    const cases: Array<[expected: string, webPath: string]> = [
      ['wiki name', 'wiki-name'],
      ['wiki-name', 'wiki-name.-'],
      ['name with / slash', 'name-with %2F slash'],
      ['name with % percent', 'name-with %25 percent'],
      ['2000-01-02 meeting', '2000-01-02+meeting.-.md'],
      ['a b', 'a%20b.md'],
    ];
    for (const [expected, webPath] of cases) expect(webPathToUserTitle(webPath), webPath).toBe(expected);
  });

  it('web paths to git paths', () => {
    const cases: Array<[expected: string, webPath: string]> = [
      ['wiki-name.md', 'wiki%20name'],
      ['wiki-name.md', 'wiki+name'],
      ['wiki name.md', 'wiki%20name.md'],
      ['wiki%20name.md', 'wiki%2520name.md'],
      ['2000-01-02-meeting.md', '2000-01-02+meeting'],
      ['2000-01-02 meeting.-.md', '2000-01-02%20meeting.-'],
    ];
    for (const [expected, webPath] of cases) expect(webPathToGitPath(webPath), webPath).toBe(expected);
  });

  it('git paths to web paths; files that are not pages have none', () => {
    const cases: Array<[expected: string, file: string]> = [
      ['hello-world', 'hello-world.md'],
      ['hello-world', 'hello world.md'],
      ['hello-world.-', 'hello-world.-.md'],
      ['hello+world.-', 'hello world.-.md'],
      ['symbols-%2F', 'symbols %2F.md'],
    ];
    for (const [expected, file] of cases) expect(gitPathToWebPath(file), file).toBe(expected);
    for (const bad of ['nofileextension', 'wrongfileextension.txt', 'badescaping%%.md']) expect(gitPathToWebPath(bad), bad).toBeNull();
  });

  it('a title goes to a web path and a git path and comes back the same (printable ASCII)', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 1000; i++) {
      const title = Array.from({ length: next() % 20 }, () => String.fromCharCode(0x20 + (next() % 0x60)))
        .join('')
        .trim();
      if (title === '' || title === '.' || title === '..') continue;
      const webPath = userTitleToWebPath(title);
      const gitPath = webPathToGitPath(webPath);
      const webPath1 = gitPathToWebPath(gitPath) ?? '';
      expect(webPathToUserTitle(webPath1), JSON.stringify(title)).toBe(title);
      expect(webPath1, JSON.stringify(title)).toBe(webPath);
      expect(webPathToGitPath(webPath1), JSON.stringify(title)).toBe(gitPath);
    }
  });

  it('request segments keep their escapes; reserved names are refused', () => {
    expect(webPathFromRequest('Home-Page')).toBe('Home-Page');
    expect(webPathFromRequest('a%2Fb')).toBe('a%2Fb');
    for (const name of ['_pages', '_new', '_edit', 'raw'])
      expect(() => requireUsableWebPath(userTitleToWebPath(name))).toThrow(InvalidArgumentError);
    expect(() => requireUsableWebPath('Raw-Notes')).not.toThrow();
  });
});
