import { describe, expect, it } from 'vitest';
import type { Models } from '../../../src/db/client.ts';
import { hookRequest } from '../../../src/webhooks/formats/request.ts';
import { headerEventOf } from '../../../src/webhooks/events/outgoing.ts';
import { hooksFor } from '../../../src/webhooks/matchHooks.ts';
import type { Doc } from '../../helpers/hookReceiver.ts';

const hook = (type: Models.HookType, extra: Partial<Models.Webhook> = {}): Models.Webhook =>
  ({
    id: 1,
    repoId: 1,
    ownerId: null,
    isSystemWebhook: false,
    name: '',
    url: 'https://chat.example/hook',
    httpMethod: 'POST',
    contentType: 'JSON',
    secret: '',
    events: '{}',
    branchFilter: '',
    isActive: true,
    type,
    meta: '',
    headerAuthorizationEncrypted: '',
    lastStatus: 'NONE',
    createdAt: new Date(),
    updatedAt: new Date(),
    ...extra,
  }) as Models.Webhook;

const repository = { full_name: 'alice/demo', html_url: 'http://localhost:3000/alice/demo' };
const sender = { login: 'alice', avatar_url: 'http://a/avatar', html_url: 'http://localhost:3000/alice' };
const push = JSON.stringify(
  {
    ref: 'refs/heads/main',
    compare_url: 'http://localhost:3000/alice/demo/compare/a...b',
    total_commits: 1,
    commits: [{ id: 'abcdef1234567', message: 'fix it\n\nbody', url: 'http://c', author: { name: 'Alice' } }],
    repository,
    sender,
  },
  null,
  2,
);
const issue = JSON.stringify(
  { action: 'opened', number: 3, issue: { number: 3, title: 'Bug', body: 'broken', html_url: 'http://i/3' }, repository, sender },
  null,
  2,
);

describe('delivery formats per hook type', () => {
  it('gitea and gogs send the payload as JSON, or as payload= for form, signed over the JSON', () => {
    const json = hookRequest(hook('GITEA'), 'push', push);
    expect(json).toMatchObject({ method: 'POST', contentType: 'application/json', body: push, signed: push });
    const form = hookRequest(hook('GOGS', { contentType: 'FORM' }), 'push', push);
    expect(form.contentType).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(form.body).get('payload')).toBe(push);
    expect(form.signed).toBe(push);
    const get = hookRequest(hook('GITEA', { httpMethod: 'GET' }), 'push', push);
    expect(get.method).toBe('GET');
    expect(new URL(get.url).searchParams.get('payload')).toBe(push);
  });

  it('slack, discord, dingtalk, telegram, msteams, feishu, matrix, wechatwork and packagist get their formats', () => {
    const body = (type: Models.HookType, payload = push, extra: Partial<Models.Webhook> = {}) =>
      JSON.parse(hookRequest(hook(type, extra), payload === push ? 'push' : 'issues', payload).body) as Doc;
    const slack = body('SLACK', push, { meta: JSON.stringify({ channel: '#dev', username: 'bot', icon_url: '', color: '' }) });
    expect(slack).toMatchObject({ channel: '#dev', username: 'bot', text: expect.stringContaining('[alice/demo:main] 1 new commit') });
    expect(slack).toMatchObject({ attachments: [{ text: expect.stringContaining('abcdef1: fix it - Alice') }] });
    expect(body('DISCORD', issue)).toMatchObject({
      embeds: [
        {
          title: '[alice/demo] Issue opened: #3 Bug',
          url: 'http://i/3',
          description: 'broken',
          author: { name: 'alice' },
        },
      ],
    });
    expect(body('DINGTALK', issue)).toMatchObject({
      msgtype: 'actionCard',
      actionCard: { title: '[alice/demo] Issue opened: #3 Bug', singleURL: 'http://i/3' },
    });
    expect(body('TELEGRAM', issue)).toMatchObject({ parse_mode: 'HTML', text: expect.stringContaining('<a href="http://i/3">') });
    expect(body('MSTEAMS', issue)).toMatchObject({ '@type': 'MessageCard', title: '[alice/demo] Issue opened: #3 Bug' });
    expect(body('FEISHU', issue)).toMatchObject({ msg_type: 'text', content: { text: expect.stringContaining('Issue opened') } });
    expect(body('MATRIX', issue)).toMatchObject({ msgtype: 'm.notice', format: 'org.matrix.custom.html' });
    expect(body('WECHATWORK', issue)).toMatchObject({
      msgtype: 'markdown',
      markdown: { content: expect.stringContaining('[[alice/demo] Issue opened') },
    });
    expect(body('PACKAGIST', push, { meta: JSON.stringify({ package_url: 'https://packagist.org/packages/a/b' }) })).toEqual({
      repository: { url: 'https://packagist.org/packages/a/b' },
    });
    const matrix = hookRequest(
      hook('MATRIX', { url: 'https://m.example/_matrix/client/r0/rooms/!r/send/m.room.message' }),
      'issues',
      issue,
    );
    expect(matrix.method).toBe('PUT');
    expect(matrix.url).toMatch(/\/send\/m\.room\.message\/[0-9a-f]{40}$/);
    expect(matrix.signed).toBe(matrix.body);
  });

  it('chat formats tell wiki events as Gitea does (getWikiPayloadInfo)', () => {
    const wiki = (action: string, comment: string) =>
      JSON.parse(
        hookRequest(hook('DISCORD'), 'wiki', JSON.stringify({ action, page: 'Home-Page', comment, repository, sender }, null, 1)).body,
      ) as Doc;
    expect(wiki('created', 'first')).toMatchObject({
      embeds: [{ title: "[alice/demo] New wiki page 'Home-Page' (first)", url: 'http://localhost:3000/alice/demo/wiki/Home-Page' }],
    });
    expect(wiki('edited', 'Update "Home-Page"')).toMatchObject({
      embeds: [{ title: `[alice/demo] Wiki page 'Home-Page' edited (Update "Home-Page")` }],
    });
    expect(wiki('deleted', '')).toMatchObject({ embeds: [{ title: "[alice/demo] Wiki page 'Home-Page' deleted" }] });
  });

  it("maps event types to Gitea's X-Gitea-Event values", () => {
    expect(headerEventOf('issue_label')).toBe('issues');
    expect(headerEventOf('pull_request_sync')).toBe('pull_request');
    expect(headerEventOf('pull_request_comment')).toBe('issue_comment');
    expect(headerEventOf('pull_request_review_approved')).toBe('pull_request_approved');
    expect(headerEventOf('pull_request_review_rejected')).toBe('pull_request_rejected');
    expect(headerEventOf('pull_request_review_comment')).toBe('pull_request_comment');
    expect(headerEventOf('push')).toBe('push');
  });
});

describe('which hooks take a payload (Gitea PrepareWebhook)', () => {
  const events = (names: string[]) => JSON.stringify({ choose_events: true, events: Object.fromEntries(names.map((n) => [n, true])) });
  const candidates = {
    hooks: [
      hook('GITEA', { id: 1, repoId: 7, events: events(['push']), branchFilter: 'main' }),
      hook('SLACK', { id: 2, repoId: 7, events: events(['push', 'pull_request_review']) }),
      hook('GITEA', { id: 3, repoId: null, ownerId: 70, events: events(['push']) }),
      hook('GITEA', { id: 4, repoId: null, ownerId: null, isSystemWebhook: true, events: JSON.stringify({ send_everything: true }) }),
      hook('GITEA', { id: 5, repoId: 8, events: events(['push']) }),
    ],
    ownerOf: new Map([
      [7, 70],
      [8, 80],
    ]),
  };
  const ids = (ev: Parameters<typeof hooksFor>[1]) => hooksFor(candidates, ev).map((h) => h.id);

  it('applies events, branch filters, reach, and skips pushes without commits for chat types', () => {
    expect(ids({ eventType: 'push', repoId: 7, payload: {}, branch: 'main', commitCount: 1 })).toEqual([1, 2, 3, 4]);
    expect(ids({ eventType: 'push', repoId: 7, payload: {}, branch: 'dev', commitCount: 1 })).toEqual([2, 3, 4]);
    expect(ids({ eventType: 'push', repoId: 7, payload: {}, branch: 'main', commitCount: 0 })).toEqual([1, 3, 4]);
    expect(ids({ eventType: 'pull_request_review_approved', repoId: 7, payload: {} })).toEqual([2, 4]);
    expect(ids({ eventType: 'issues', repoId: 8, payload: {} })).toEqual([4]);
  });
});
