import type { ServiceContext } from '../../services/context.ts';
import type { ConvertOptions } from './user.ts';

/** Converter options from the request's context. */
export function convertOptions(cx: ServiceContext): ConvertOptions {
  return { rootUrl: cx.config.rootUrl, noReplyAddress: cx.config.noReplyAddress, ssh: cx.config.ssh };
}

/** Gitea's visibility strings to the stored enum (`''` → unset). */
export function parseVisibility(v: '' | 'public' | 'limited' | 'private' | undefined): 'PUBLIC' | 'LIMITED' | 'PRIVATE' | undefined {
  return v ? (v.toUpperCase() as 'PUBLIC' | 'LIMITED' | 'PRIVATE') : undefined;
}
