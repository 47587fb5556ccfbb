import { basic, type TestApp } from '../../helpers/app.ts';

/** A REST call as `user` (password), answering the status and the parsed JSON body ({} when empty). */
export function restApi(t: () => TestApp) {
  return async (method: string, url: string, user: string, body?: unknown) => {
    const res = await t().request(method, `/api/v1${url}`, { headers: basic(user), ...(body === undefined ? {} : { body }) });
    return { status: res.statusCode, json: res.body ? (res.json() as Record<string, unknown>) : {} };
  };
}
