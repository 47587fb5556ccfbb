// A payload in words, for the chat-type hooks (Gitea services/webhook/general.go getPushPayloadInfo,
// getIssuesPayloadInfo, getPullRequestPayloadInfo, …): a title, a link, a body text and a colour.

/** What chat formats render. */
export interface Summary {
  title: string;
  url: string;
  text: string;
  /** Gitea's colours: green for created/opened, red for closed/deleted, blue otherwise. */
  color: number;
  /** The sender's login, avatar and profile. */
  sender: { login: string; avatar_url: string; html_url: string };
  /** The push's commits (id, message, url, author), for formats that list them. */
  commits: { id: string; message: string; url: string; author: string }[];
}

const GREEN = 0x1db954;
const RED = 0xff3b30;
const BLUE = 0x066aff;
const YELLOW = 0xffd60a;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

function colorOf(action: string): number {
  if (['opened', 'created', 'reopened'].includes(action)) return GREEN;
  if (['closed', 'deleted'].includes(action)) return RED;
  if (action === 'reviewed') return YELLOW;
  return BLUE;
}

const VERB: Record<string, string> = {
  opened: 'opened',
  closed: 'closed',
  reopened: 'reopened',
  edited: 'edited',
  assigned: 'assigned',
  unassigned: 'unassigned',
  label_updated: 'labels updated',
  label_cleared: 'labels cleared',
  milestoned: 'milestoned',
  demilestoned: 'demilestoned',
  synchronized: 'synchronized',
  review_requested: 'review requested',
  review_request_removed: 'review request removed',
  reviewed: 'reviewed',
  created: 'created',
  deleted: 'deleted',
};

/** Summarizes a Gitea payload of `eventType`. */
export function summarize(eventType: string, payload: Obj): Summary {
  const repo = obj(payload.repository);
  const full = str(repo.full_name);
  const senderObj = obj(payload.sender);
  const sender = { login: str(senderObj.login), avatar_url: str(senderObj.avatar_url), html_url: str(senderObj.html_url) };
  const action = str(payload.action);
  const base = { sender, commits: [] as Summary['commits'] };
  if (eventType === 'push') {
    const ref = str(payload.ref).replace(/^refs\/(heads|tags)\//, '');
    const commits = (Array.isArray(payload.commits) ? payload.commits : []).map((c) => {
      const o = obj(c);
      return { id: str(o.id), message: str(o.message).split('\n')[0] ?? '', url: str(o.url), author: str(obj(o.author).name) };
    });
    const n = Number(payload.total_commits ?? commits.length);
    return {
      ...base,
      commits,
      title: `[${full}:${ref}] ${n} new commit${n === 1 ? '' : 's'}`,
      url: str(payload.compare_url),
      text: commits.map((c) => `${c.id.slice(0, 7)}: ${c.message} - ${c.author}`).join('\n'),
      color: BLUE,
    };
  }
  if (eventType === 'create' || eventType === 'delete') {
    const verb = eventType === 'create' ? 'created' : 'deleted';
    return {
      ...base,
      title: `[${full}] ${str(payload.ref_type)} ${str(payload.ref)} ${verb}`,
      url: str(repo.html_url),
      text: '',
      color: colorOf(verb),
    };
  }
  if (eventType === 'fork') {
    return {
      ...base,
      title: `${str(obj(payload.forkee).full_name)} is forked to ${full}`,
      url: str(repo.html_url),
      text: '',
      color: GREEN,
    };
  }
  if (eventType === 'wiki') {
    // Gitea getWikiPayloadInfo.
    const page = str(payload.page);
    const what = action === 'created' ? `New wiki page '${page}'` : `Wiki page '${page}' ${action === 'edited' ? 'edited' : 'deleted'}`;
    const comment = str(payload.comment);
    return {
      ...base,
      title: `[${full}] ${what}${comment ? ` (${comment})` : ''}`,
      url: `${str(repo.html_url)}/wiki/${page}`,
      text: '',
      color: colorOf(action),
    };
  }
  if (eventType === 'repository') {
    return { ...base, title: `[${full}] Repository ${action}`, url: str(repo.html_url), text: '', color: colorOf(action) };
  }
  const comment = obj(payload.comment);
  const item = obj(payload.pull_request ?? payload.issue);
  const isPull = payload.pull_request !== undefined || eventType.startsWith('pull_request');
  const what = isPull ? 'Pull request' : 'Issue';
  const number = str(item.number);
  const itemTitle = `#${number} ${str(item.title)}`;
  if (eventType === 'issue_comment' || eventType === 'pull_request_comment') {
    const verb = action === 'created' ? 'New comment' : action === 'edited' ? 'Comment edited' : 'Comment deleted';
    return {
      ...base,
      title: `[${full}] ${verb} on ${what.toLowerCase()} ${itemTitle}`,
      url: str(comment.html_url) || str(item.html_url),
      text: str(comment.body),
      color: colorOf(action),
    };
  }
  if (eventType.startsWith('pull_request_review_') && eventType !== 'pull_request_review_request') {
    const kind = eventType.replace('pull_request_review_', '');
    return {
      ...base,
      title: `[${full}] Pull request review ${kind}: ${itemTitle}`,
      url: str(item.html_url),
      text: str(obj(payload.review).content),
      color: kind === 'approved' ? GREEN : kind === 'rejected' ? RED : YELLOW,
    };
  }
  return {
    ...base,
    title: `[${full}] ${what} ${VERB[action] ?? action}: ${itemTitle}`,
    url: str(item.html_url),
    text: action === 'opened' ? str(item.body) : '',
    color: colorOf(action),
  };
}
