// GET /repos/{o}/{r}/issue_templates, issue_config and issue_config/validate: Gitea's template directories, front
// matter and issue forms, invalid files skipped, the config's validation message; on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, startTestApp, type TestApp } from '../../helpers/app.ts';
import { PROVIDERS } from '../../helpers/db.ts';
import { gql, mutationError, repoGlobalId } from '../../helpers/graphql.ts';
import { restApi } from '../protection/restApi.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

const BUG_MD = `---
name: Bug report
about: Something is broken
title: "[bug] "
labels: bug, triage
assignees:
  - tpl
ref: main
---
Steps to reproduce:
`;
const FORM_YAML = `name: Feature
description: Ask for something new
labels: [enhancement]
body:
  - type: markdown
    attributes:
      value: Thanks!
  - type: input
    id: summary
    attributes:
      label: Summary
    validations:
      required: true
  - type: dropdown
    attributes:
      label: Area
      options: [api, ui]
`;

describe.each(PROVIDERS)('issue templates and issue config (%s)', (provider) => {
  let t: TestApp;
  const api = restApi(() => t);
  const write = async (repo: string, files: Record<string, string>) => {
    const res = await api('POST', `/repos/tpl/${repo}/contents`, 'tpl', {
      files: Object.entries(files).map(([path, content]) => ({ operation: 'create', path, content: b64(content) })),
    });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    t = await startTestApp(provider);
    await t.createUser('tpl');
    await t.createUser('other');
    for (const body of [
      { name: 'full', auto_init: true, default_branch: 'main' },
      { name: 'plain', auto_init: true, default_branch: 'main' },
      { name: 'empty' },
      { name: 'secret', auto_init: true, private: true, default_branch: 'main' },
    ]) {
      expect((await api('POST', '/user/repos', 'tpl', body)).status).toBe(201);
    }
    await write('full', {
      '.gitea/ISSUE_TEMPLATE/bug.md': BUG_MD,
      '.gitea/ISSUE_TEMPLATE/feature.yaml': FORM_YAML,
      '.gitea/ISSUE_TEMPLATE/no-about.yml': 'name: Broken\nbody:\n  - type: input\n    attributes:\n      label: x\n',
      '.gitea/ISSUE_TEMPLATE/notes.txt': 'not a template',
      '.gitea/ISSUE_TEMPLATE/config.yaml':
        'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask there\n',
      '.github/ISSUE_TEMPLATE/plain.md': 'Just text, no front matter.\n',
    });
    await write('plain', { '.github/ISSUE_TEMPLATE/config.yml': 'contact_links:\n  - name: Docs\n    about: no url\n' });
  });
  afterAll(() => t?.close());

  it('lists the valid templates of every candidate directory in Gitea shape; invalid and non-template files are skipped', async () => {
    const res = await api('GET', '/repos/tpl/full/issue_templates', 'other');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([
      {
        name: 'Bug report',
        title: '[bug] ',
        about: 'Something is broken',
        labels: ['bug', 'triage'],
        assignees: ['tpl'],
        ref: 'refs/heads/main',
        content: 'Steps to reproduce:\n',
        body: null,
        file_name: '.gitea/ISSUE_TEMPLATE/bug.md',
      },
      {
        name: 'Feature',
        title: '',
        about: 'Ask for something new',
        labels: ['enhancement'],
        assignees: null,
        ref: '',
        content: '',
        body: [
          { type: 'markdown', id: '0', attributes: { value: 'Thanks!' }, validations: null, visible: ['form'] },
          { type: 'input', id: 'summary', attributes: { label: 'Summary' }, validations: { required: true }, visible: ['form', 'content'] },
          {
            type: 'dropdown',
            id: '2',
            attributes: { label: 'Area', options: ['api', 'ui'] },
            validations: null,
            visible: ['form', 'content'],
          },
        ],
        file_name: '.gitea/ISSUE_TEMPLATE/feature.yaml',
      },
      {
        name: 'plain.md',
        title: '',
        about: 'Just text, no front matter.\n',
        labels: null,
        assignees: null,
        ref: '',
        content: 'Just text, no front matter.\n',
        body: null,
        file_name: '.github/ISSUE_TEMPLATE/plain.md',
      },
    ]);
    expect((await api('GET', '/repos/tpl/empty/issue_templates', 'tpl')).json).toEqual([]);
  });

  it('issue_config reads config.yaml (the default when absent or invalid); validate names what is wrong', async () => {
    expect((await api('GET', '/repos/tpl/full/issue_config', 'other')).json).toEqual({
      blank_issues_enabled: false,
      contact_links: [{ name: 'Forum', url: 'https://forum.example.com', about: 'Ask there' }],
    });
    expect((await api('GET', '/repos/tpl/full/issue_config/validate', 'other')).json).toEqual({ valid: true, message: '' });
    expect((await api('GET', '/repos/tpl/plain/issue_config', 'other')).json).toEqual({ blank_issues_enabled: true, contact_links: [] });
    expect((await api('GET', '/repos/tpl/plain/issue_config/validate', 'other')).json).toEqual({
      valid: false,
      message: 'contact_link at position 1 is missing url key',
    });
    for (const repo of ['empty', 'secret']) {
      expect((await api('GET', `/repos/tpl/${repo}/issue_config`, 'tpl')).json).toEqual({ blank_issues_enabled: true, contact_links: [] });
    }
  });

  it("GraphQL createIssue applies GitHub's issueTemplate: the template's labels (by name) and assignees join the given ones", async () => {
    expect((await api('POST', '/repos/tpl/full/labels', 'tpl', { name: 'bug', color: 'ff0000' })).status).toBe(201);
    const m = `mutation($input: CreateIssueInput!) { createIssue(input: $input) {
      issue { title labels(first: 5) { nodes { name } } assignees(first: 5) { nodes { login } } } } }`;
    const create = async (input: Record<string, unknown>) =>
      gql<{ createIssue: { issue: Record<string, unknown> } | null }>(t, m, {
        headers: basic('tpl'),
        variables: { input: { repositoryId: await repoGlobalId(t, 'tpl', 'full'), title: 'From a template', ...input } },
      });
    const res = await create({ issueTemplate: 'Bug report' });
    expect(res.data?.createIssue?.issue).toEqual({
      title: 'From a template',
      labels: { nodes: [{ name: 'bug' }] },
      assignees: { nodes: [{ login: 'tpl' }] },
    });
    const byFile = await create({ issueTemplate: 'bug.md' });
    expect(byFile.data?.createIssue?.issue.labels).toEqual({ nodes: [{ name: 'bug' }] });
    expect(mutationError(await create({ issueTemplate: 'Nope' }), 'createIssue')).toMatchObject({
      code: 'VALIDATION',
      field: 'issueTemplate',
    });
    expect(mutationError(await create({ parentIssueId: await repoGlobalId(t, 'tpl', 'full') }), 'createIssue')).toMatchObject({
      field: 'parentIssueId',
    });
  });

  it('a private repository is 404 to those who may not see it, on all three routes', async () => {
    for (const path of ['issue_templates', 'issue_config', 'issue_config/validate']) {
      const res = await api('GET', `/repos/tpl/secret/${path}`, 'other');
      expect(res.status, path).toBe(404);
      expect(res.json).toMatchObject({ message: expect.any(String) as string });
    }
  });
});
