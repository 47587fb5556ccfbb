// GET /gitignore/templates[/{name}], /label/templates[/{name}], /licenses[/{name}] on both databases: the names,
// the texts, Gitea's license list order and URLs, 404 for unknown names (also for path tricks), no auth needed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { expectGiteaError } from '../../helpers/giteaAssert.ts';

describe.each(PROVIDERS)('REST templates (%s)', (provider) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(provider);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the gitignore templates and serves one by its exact name', async () => {
    const list = await t.request('GET', '/api/v1/gitignore/templates');
    expect(list.statusCode).toBe(200);
    const names = list.json() as string[];
    expect(names).toContain('Go');
    expect(names).toContain('Node');
    expect([...names].sort()).toEqual(names);
    const go = await t.request('GET', '/api/v1/gitignore/templates/Go');
    expect(go.statusCode).toBe(200);
    const body = go.json() as { name: string; source: string };
    expect(body.name).toBe('Go');
    expect(body.source).toMatch(/\*\.exe/);
    expectGiteaError(await t.request('GET', '/api/v1/gitignore/templates/go'), 404, 'not found');
    expectGiteaError(await t.request('GET', '/api/v1/gitignore/templates/..%2F..%2Fpackage.json'), 404);
  });

  it('lists the label sets and serves the labels of one, colours without #', async () => {
    const list = await t.request('GET', '/api/v1/label/templates');
    expect(list.json()).toEqual(['Advanced', 'Default']);
    const res = await t.request('GET', '/api/v1/label/templates/Default');
    expect(res.statusCode).toBe(200);
    const labels = res.json() as Array<{ name: string; color: string; description: string; exclusive: boolean }>;
    expect(labels.find((l) => l.name === 'bug')).toEqual({
      name: 'bug',
      color: 'ee0701',
      description: 'Something is not working',
      exclusive: false,
    });
    for (const l of labels) expect(l.color).toMatch(/^[0-9a-f]{6}$/);
    expectGiteaError(await t.request('GET', '/api/v1/label/templates/Nope'), 404, 'not found');
  });

  it('lists the licenses with the preferred ones first, and serves a license text', async () => {
    const res = await t.request('GET', '/api/v1/licenses');
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<{ key: string; name: string; url: string }>;
    expect(list.slice(0, 2).map((l) => l.key)).toEqual(['Apache-2.0', 'MIT']);
    const rest = list.slice(2).map((l) => l.key);
    expect(rest).toEqual([...rest].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(rest).not.toContain('MIT');
    expect(list.find((l) => l.key === 'GPL-2.0+')).toEqual({
      key: 'GPL-2.0+',
      name: 'GPL-2.0+',
      url: 'http://localhost:3000/api/v1/licenses/GPL-2.0+',
    });
    const mit = await t.request('GET', '/api/v1/licenses/MIT');
    expect(mit.statusCode).toBe(200);
    const info = mit.json() as Record<string, string>;
    expect(info).toMatchObject({ key: 'MIT', name: 'MIT', url: 'http://localhost:3000/api/v1/licenses/MIT', implementation: '' });
    expect(info.body).toMatch(/^MIT License\n\nCopyright \(c\) <year> <copyright holders>/);
    expectGiteaError(await t.request('GET', '/api/v1/licenses/mit'), 404, 'not found');
    expectGiteaError(await t.request('GET', '/api/v1/licenses/toString'), 404);
  });
});
