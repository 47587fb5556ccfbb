// The OAuth2 provider's pages: sign-in, consent and error, server-rendered, without JavaScript.
import { escapeHtml } from '../web/html.ts';

/** Hidden form fields carrying the authorization request from page to page. */
export type Hidden = Record<string, string>;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 30em; margin: 3em auto; padding: 0 1em; line-height: 1.5; color: #222; }
label { display: block; margin: .8em 0 .2em; }
input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: .4em; }
button { margin: 1em .5em 0 0; padding: .4em 1.2em; }
.error { color: #a00; }
code { background: #f3f3f3; padding: 0 .25em; word-break: break-all; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

const hiddenFields = (hidden: Hidden): string =>
  Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');

/** The sign-in form; it posts back to the authorization endpoint with the request's parameters. */
export function signInPage(opts: { appName: string; clientName: string; hidden: Hidden; error?: string }): string {
  const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return page(
    `Sign in - ${opts.appName}`,
    `<h1>Sign in to ${escapeHtml(opts.appName)}</h1>
<p><strong>${escapeHtml(opts.clientName)}</strong> wants to access your account.</p>
${error}
<form method="post" action="authorize">
${hiddenFields(opts.hidden)}
<label for="user_name">Username or email address</label>
<input type="text" id="user_name" name="user_name" autocomplete="username" required autofocus>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** The consent page: who asks, for what, where the answer goes; grant or deny. */
export function consentPage(opts: {
  appName: string;
  viewer: string;
  clientName: string;
  owner: string;
  scopes: string[];
  apiScope: string;
  redirectUri: string;
  hidden: Hidden;
}): string {
  const scopes = opts.scopes.length ? opts.scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ') : '<em>none</em>';
  return page(
    `Authorize ${opts.clientName} - ${opts.appName}`,
    `<h1>Authorize application</h1>
<p>Signed in as <strong>${escapeHtml(opts.viewer)}</strong>.</p>
<p><strong>${escapeHtml(opts.clientName)}</strong> (by ${escapeHtml(opts.owner)}) asks for access to your account.</p>
<p>Scopes: ${scopes}<br>API access of its tokens: <code>${escapeHtml(opts.apiScope)}</code></p>
<p>You will be sent back to <code>${escapeHtml(opts.redirectUri)}</code>.</p>
<form method="post" action="grant">
${hiddenFields(opts.hidden)}
<button type="submit" name="granted" value="true">Authorize</button>
<button type="submit" name="granted" value="false">Deny</button>
</form>`,
  );
}

/** An error that cannot be sent to the client (unknown client, unregistered redirect URI, a forged form). */
export function errorPage(opts: { appName: string; title: string; description: string }): string {
  return page(
    `${opts.title} - ${opts.appName}`,
    `<h1>${escapeHtml(opts.title)}</h1>
<p class="error">${escapeHtml(opts.description)}</p>`,
  );
}
