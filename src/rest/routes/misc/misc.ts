import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../../services/paging.ts';
import { MAX_BLOB_SIZE } from '../../../services/repo/gitRead.ts';
import { defineRoute } from '../../route.ts';

export const miscRoutes = [
  defineRoute({
    method: 'GET',
    path: '/version',
    operationId: 'getVersion',
    summary: 'Returns the version of the running application',
    tag: 'miscellaneous',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'ServerVersion' },
    handler: async ({ cx }) => ({ version: cx.config.version }),
  }),
  defineRoute({
    method: 'GET',
    path: '/settings/api',
    operationId: 'getGeneralAPISettings',
    summary: "Get instance's global settings for api",
    tag: 'settings',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'GeneralAPISettings' },
    handler: async () => ({
      max_response_items: MAX_PAGE_SIZE,
      default_paging_num: DEFAULT_PAGE_SIZE,
      default_git_trees_per_page: 1000,
      default_max_blob_size: MAX_BLOB_SIZE,
      default_max_response_size: 104_857_600,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/settings/attachment',
    operationId: 'getGeneralAttachmentSettings',
    summary: "Get instance's global settings for Attachment",
    tag: 'settings',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'GeneralAttachmentSettings' },
    handler: async ({ cx }) => ({
      enabled: true,
      allowed_types: cx.config.attachments.allowedTypes.join(','),
      max_size: Math.floor(cx.config.attachments.maxBytes / (1024 * 1024)),
      // Gitea's MAX_FILES (for the web uploader; the API takes one file a request).
      max_files: 5,
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/settings/ui',
    operationId: 'getGeneralUISettings',
    summary: "Get instance's global settings for ui",
    tag: 'settings',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'GeneralUISettings' },
    handler: async () => ({
      default_theme: 'gitea-auto',
      allowed_reactions: ['+1', '-1', 'laugh', 'hooray', 'confused', 'heart', 'rocket', 'eyes'],
      custom_emojis: ['git', 'gitea', 'codeberg', 'gitlab', 'github', 'gogs'],
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/settings/repository',
    operationId: 'getGeneralRepositorySettings',
    summary: "Get instance's global settings for repositories",
    tag: 'settings',
    scopes: null,
    gate: 'none',
    success: { status: 200, schema: 'GeneralRepoSettings' },
    handler: async () => ({
      mirrors_disabled: false,
      http_git_disabled: false,
      migrations_disabled: false,
      stars_disabled: false,
      time_tracking_disabled: false,
      lfs_disabled: true,
    }),
  }),
];
