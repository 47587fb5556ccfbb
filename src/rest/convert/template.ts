// License templates → Gitea LicensesTemplateListEntry / LicenseTemplateInfo (routers/api/v1/misc/licenses.go).
import type { z } from 'zod';
import type { LicenseTemplateInfo, LicensesTemplateListEntry } from '../structs/template.ts';
import { goPathEscape } from './git.ts';

/** `{ROOT}api/v1/licenses/{url.PathEscape(key)}`. */
function licenseUrl(key: string, rootUrl: string): string {
  return `${rootUrl}api/v1/licenses/${goPathEscape(key)}`;
}

/** One entry of GET /licenses. */
export function toApiLicenseEntry(key: string, rootUrl: string): z.infer<typeof LicensesTemplateListEntry> {
  return { key, name: key, url: licenseUrl(key, rootUrl) };
}

/** GET /licenses/{name}: Gitea leaves `implementation` empty. */
export function toApiLicenseInfo(t: { key: string; name: string; body: string }, rootUrl: string): z.infer<typeof LicenseTemplateInfo> {
  return { key: t.key, name: t.name, url: licenseUrl(t.key, rootUrl), body: t.body, implementation: '' };
}
