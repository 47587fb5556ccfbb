// A delivery's HTTP request per hook type: gitea and gogs get Gitea's payload (JSON, or form-encoded as
// `payload=`), the chat and registry types get their own message formats (Gitea services/webhook/<type>.go).
import { createHash } from 'node:crypto';
import type { Models } from '../../db/client.ts';
import { parseSlackMeta } from '../../services/webhook/validate.ts';
import { summarize, type Summary } from './summary.ts';

/** The request to send: method, URL, content type and body bytes, and the bytes the signature covers. */
export interface HookRequest {
  method: string;
  url: string;
  contentType: string;
  body: string;
  /** Gitea signs the payload JSON, also when the body is form-encoded. */
  signed: string;
}

const hex = (n: number) => `#${n.toString(16).padStart(6, '0')}`;
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const link = (text: string, url: string) => (url ? `<a href="${url}">${escapeHtml(text)}</a>` : escapeHtml(text));
const mdLink = (text: string, url: string) => (url ? `[${text}](${url})` : text);

function slack(hook: Models.Webhook, s: Summary): unknown {
  const meta = parseSlackMeta(hook.meta);
  const title = s.url ? `<${s.url}|${s.title.replace(/[<>&]/g, '')}>` : s.title;
  return {
    channel: meta.channel,
    text: title,
    username: meta.username,
    icon_url: meta.icon_url,
    attachments: s.text ? [{ fallback: s.text, color: meta.color || hex(s.color), title: s.title, title_link: s.url, text: s.text }] : [],
  };
}

function discord(s: Summary): unknown {
  return {
    embeds: [
      {
        title: s.title,
        description: s.text,
        url: s.url,
        color: s.color,
        author: { name: s.sender.login, url: s.sender.html_url, icon_url: s.sender.avatar_url },
      },
    ],
  };
}

function msteams(s: Summary): unknown {
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    themeColor: s.color.toString(16).padStart(6, '0'),
    title: s.title,
    summary: s.title,
    sections: [
      { activityTitle: s.sender.login, activitySubtitle: s.sender.html_url, activityImage: s.sender.avatar_url, text: s.text, facts: [] },
    ],
    potentialAction: [{ '@type': 'OpenUri', name: 'View in Forgegraph', targets: [{ os: 'default', uri: s.url }] }],
  };
}

function chatText(s: Summary): string {
  return s.text ? `${s.title}\r\n\r\n${s.text}` : s.title;
}

/** The body of a non-gitea hook type. */
function chatBody(hook: Models.Webhook, s: Summary): unknown {
  switch (hook.type) {
    case 'SLACK':
      return slack(hook, s);
    case 'DISCORD':
      return discord(s);
    case 'DINGTALK':
      return {
        msgtype: 'actionCard',
        actionCard: { text: chatText(s), title: s.title, hideAvatar: '0', singleTitle: 'view it', singleURL: s.url },
      };
    case 'TELEGRAM':
      return {
        parse_mode: 'HTML',
        text: `${link(s.title, s.url)}${s.text ? `\n${escapeHtml(s.text)}` : ''}`,
        disable_web_page_preview: true,
      };
    case 'MSTEAMS':
      return msteams(s);
    case 'FEISHU':
      return { msg_type: 'text', content: { text: chatText(s) } };
    case 'MATRIX':
      return {
        body: `${mdLink(s.title, s.url)}${s.text ? `\n${s.text}` : ''}`,
        msgtype: 'm.notice',
        format: 'org.matrix.custom.html',
        formatted_body: `${link(s.title, s.url)}${s.text ? `<br>${escapeHtml(s.text)}` : ''}`,
      };
    case 'WECHATWORK':
      return { msgtype: 'markdown', markdown: { content: `# ${mdLink(s.title, s.url)}${s.text ? `\n${s.text}` : ''}` } };
    default:
      return { text: chatText(s) };
  }
}

/** Packagist's update notification (Gitea packagist.go): the package URL from the hook's settings. */
function packagist(hook: Models.Webhook): unknown {
  try {
    return { repository: { url: String((JSON.parse(hook.meta || '{}') as { package_url?: unknown }).package_url ?? '') } };
  } catch {
    return { repository: { url: '' } };
  }
}

/** The request of one delivery of `payloadContent` (Gitea's payload JSON) to `hook`; throws when its URL is unusable. */
export function hookRequest(hook: Models.Webhook, eventType: string, payloadContent: string): HookRequest {
  // Throws for a URL no attempt can use (Gitea's edit stores any string): the delivery fails at once.
  const target = new URL(hook.url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported URL scheme ${target.protocol}`);
  if (hook.type === 'GITEA' || hook.type === 'GOGS') {
    const form = hook.contentType === 'FORM';
    if (hook.httpMethod === 'GET') {
      // Gitea sends the payload as the `payload` query parameter of a GET.
      const url = new URL(hook.url);
      url.searchParams.set('payload', payloadContent);
      return { method: 'GET', url: url.toString(), contentType: '', body: '', signed: payloadContent };
    }
    return {
      method: 'POST',
      url: hook.url,
      contentType: form ? 'application/x-www-form-urlencoded' : 'application/json',
      body: form ? `payload=${encodeURIComponent(payloadContent)}` : payloadContent,
      signed: payloadContent,
    };
  }
  const payload = JSON.parse(payloadContent) as Record<string, unknown>;
  const body = JSON.stringify(hook.type === 'PACKAGIST' ? packagist(hook) : chatBody(hook, summarize(eventType, payload)), null, 2);
  // Matrix: PUT to the room's send URL with a transaction id derived from the message.
  const url = hook.type === 'MATRIX' ? `${hook.url.replace(/\/$/, '')}/${createHash('sha1').update(body).digest('hex')}` : hook.url;
  return { method: hook.type === 'MATRIX' ? 'PUT' : 'POST', url, contentType: 'application/json', body, signed: body };
}
