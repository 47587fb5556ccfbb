// Task logs on disk (Gitea modules/actions/log.go): rows appended to `<data>/actions_log/<repo>/<task>.log` while
// the task runs; the last UpdateLog (no_more) compresses the file to `.log.gz` and marks it stored.
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync } from 'node:zlib';

export interface LogRow {
  time: Date;
  content: string;
}

const dirOf = (dataDir: string, repoId: number) => path.join(dataDir, 'actions_log', String(repoId));

/** The log's file name relative to actions_log (task.logFilename). */
export const logFileName = (repoId: number, taskId: number): string => `${repoId}/${taskId}.log`;

/** One line per row: RFC 3339 time, a space, the content (Gitea's FormatLog). */
const formatRow = (row: LogRow): string => `${row.time.toISOString()} ${row.content.replace(/\n/g, ' ')}\n`;

export async function appendLogRows(dataDir: string, repoId: number, taskId: number, rows: readonly LogRow[]): Promise<number> {
  if (!rows.length) return 0;
  await mkdir(dirOf(dataDir, repoId), { recursive: true });
  const text = rows.map(formatRow).join('');
  await appendFile(path.join(dataDir, 'actions_log', logFileName(repoId, taskId)), text);
  return Buffer.byteLength(text);
}

/** Compresses the finished log. */
export async function archiveLog(dataDir: string, repoId: number, taskId: number): Promise<void> {
  const file = path.join(dataDir, 'actions_log', logFileName(repoId, taskId));
  await mkdir(dirOf(dataDir, repoId), { recursive: true });
  await appendFile(file, '');
  await pipeline(createReadStream(file), createGzip(), createWriteStream(`${file}.gz`));
  await rm(file);
}

/** The log text (without the times: Gitea's job-logs endpoint sends the raw lines); "" when nothing was logged. */
export async function readLog(dataDir: string, repoId: number, taskId: number, archived: boolean): Promise<string> {
  const file = path.join(dataDir, 'actions_log', logFileName(repoId, taskId));
  try {
    return archived ? gunzipSync(await readFile(`${file}.gz`)).toString('utf8') : await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** Removes a task's log, compressed or not (nothing when there is none). */
export async function removeLog(dataDir: string, repoId: number, taskId: number): Promise<void> {
  const file = path.join(dataDir, 'actions_log', logFileName(repoId, taskId));
  await Promise.all([rm(file, { force: true }), rm(`${file}.gz`, { force: true })]);
}

/** The repository ids that have a log directory. */
export async function loggedRepoIds(dataDir: string): Promise<number[]> {
  const entries = await readdir(path.join(dataDir, 'actions_log'), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && /^\d+$/.test(e.name)).map((e) => Number(e.name));
}

/** Removes every task log of a deleted repository. */
export async function removeRepoLogs(dataDir: string, repoId: number): Promise<void> {
  await rm(dirOf(dataDir, repoId), { recursive: true, force: true });
}
