import type { Duplex } from 'node:stream';
import { PermissionDeniedError } from '../../errors.ts';

/** What the server does when a hook reports (src/git/installHooks.ts describes the protocol). */
export interface HookHandlers {
  /** Before any ref moves; resolving lets the push go on, throwing declines it. */
  preReceive(lines: readonly string[]): Promise<void>;
  /** After the refs moved, with the updates git applied. */
  postReceive(lines: readonly string[]): void;
}

/** A single line for the hook's `read` (no newline, bounded). */
function answerText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // A refusal (branch protection) is shown as it is, as Gitea's pre-receive prints it.
  return (err instanceof PermissionDeniedError ? text : `could not record the push: ${text}`).replace(/[\r\n]+/g, ' ').slice(0, 300);
}

/**
 * Serves the hooks of one receive-pack over its channel socket (fd 3 of git and of the hooks it runs): parses
 * "<hook>\n<lines>\n.\n" messages and answers pre-receive with "ok" or "error <why>".
 */
export function serveHookChannel(socket: Duplex, handlers: HookHandlers): void {
  let buffer = '';
  let current: { hook: string; lines: string[] } | null = null;
  socket.setEncoding('utf8');
  // The hook may be gone (killed push): nothing to answer then.
  socket.on('error', () => undefined);
  const onLine = (line: string) => {
    if (!current) {
      if (line === 'pre-receive' || line === 'post-receive') current = { hook: line, lines: [] };
      return;
    }
    if (line !== '.') {
      current.lines.push(line);
      return;
    }
    const { hook, lines } = current;
    current = null;
    if (hook === 'post-receive') {
      handlers.postReceive(lines);
      return;
    }
    handlers.preReceive(lines).then(
      () => socket.write('ok\n'),
      (err: unknown) => socket.write(`error ${answerText(err)}\n`),
    );
  };
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      onLine(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
}
