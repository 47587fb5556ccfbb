// `forgegraph dump` and `forgegraph restore`.
import path from 'node:path';
import { dumpTo, restoreFrom } from '../db/backup.ts';
import { runCronTask } from '../services/cron/cron.ts';
import { withSystem } from './system.ts';

export async function dump(output: string): Promise<void> {
  await withSystem(async (cx) => {
    const manifest = await dumpTo(cx.db, cx.config.dbProvider, cx.config.dataDir, path.resolve(output));
    const total = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `Dumped ${total} rows of ${Object.keys(manifest.rows).length} tables and ${manifest.data.join(', ')} to ${path.resolve(output)}\n`,
    );
  });
}

export async function restore(input: string): Promise<void> {
  await withSystem(async (cx) => {
    const manifest = await restoreFrom(cx.db, cx.config.dbProvider, cx.config.dataDir, path.resolve(input));
    await runCronTask(cx, 'resync_all_hooks');
    const total = Object.values(manifest.rows).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `Restored ${total} rows (dumped from ${manifest.provider} at ${manifest.createdAt}) and ${manifest.data.join(', ')} into ${cx.config.dataDir}\n`,
    );
  });
}
