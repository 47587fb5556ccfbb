import type { PushMirrorView } from '../../services/migration/pushMirror.ts';
import { goDuration } from '../../services/goDuration.ts';
import type { PushMirror } from '../structs/migration.ts';
import { apiTime } from './time.ts';

/** Gitea's PushMirror JSON (credentials never shown; the address is stored without them). */
export function toApiPushMirror(m: PushMirrorView): PushMirror {
  return {
    repo_name: m.repoName,
    remote_name: m.remoteName,
    remote_address: m.remoteAddress,
    created: apiTime(m.createdAt),
    last_update: m.lastUpdateAt ? apiTime(m.lastUpdateAt) : apiTime(new Date(0)),
    last_error: m.lastError,
    interval: goDuration(m.interval),
    sync_on_commit: m.syncOnCommit,
  };
}
