// The runtime token of a task (Gitea services/actions/auth.go CreateAuthorizationToken): an HS256 JWT the runner
// passes to the job as ACTIONS_RUNTIME_TOKEN (task context `gitea_runtime_token`). The artifact toolkit reads its
// `scp` claim ("Actions.Results:<run>:<job>") for the ids it sends; the artifact API accepts it as the bearer.
import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

const LIFETIME = '24h';
const key = (secretKey: string) => createHmac('sha256', secretKey).update('forgegraph actions runtime token').digest();

export function issueRuntimeToken(secretKey: string, ids: { taskId: number; runId: number; jobId: number }): Promise<string> {
  return new SignJWT({ scp: `Actions.Results:${ids.runId}:${ids.jobId}`, TaskID: ids.taskId, RunID: ids.runId, JobID: ids.jobId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setNotBefore('0s')
    .setExpirationTime(LIFETIME)
    .sign(key(secretKey));
}

/** The task id of a valid, unexpired runtime token; null for anything else. */
export async function runtimeTokenTask(secretKey: string, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, key(secretKey), { algorithms: ['HS256'] });
    return typeof payload.TaskID === 'number' && Number.isSafeInteger(payload.TaskID) ? payload.TaskID : null;
  } catch {
    return null;
  }
}
