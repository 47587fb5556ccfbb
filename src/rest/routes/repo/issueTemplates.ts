// GET /repos/{o}/{r}/issue_templates, issue_config and issue_config/validate (Gitea routers/api/v1/repo/repo.go).
import { getIssueConfig, listIssueTemplates, validateIssueConfig } from '../../../services/issue/issueTemplates.ts';
import { repoRef } from '../../params.ts';
import { defineRoute } from '../../route.ts';

export const issueTemplateRoutes = [
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issue_templates',
    operationId: 'repoGetIssueTemplates',
    summary: 'Get available issue templates for a repository',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: '[IssueTemplate]' },
    errors: [404],
    handler: ({ cx, params }) => listIssueTemplates(cx, repoRef(params)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issue_config',
    operationId: 'repoGetIssueConfig',
    summary: 'Returns the issue config for a repo',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'IssueConfig' },
    errors: [404],
    handler: ({ cx, params }) => getIssueConfig(cx, repoRef(params)),
  }),
  defineRoute({
    method: 'GET',
    path: '/repos/{owner}/{repo}/issue_config/validate',
    operationId: 'repoValidateIssueConfig',
    summary: 'Returns the validation information for a issue config',
    tag: 'repository',
    scopes: ['repository'],
    gate: 'none',
    success: { status: 200, schema: 'IssueConfigValidation' },
    errors: [404],
    handler: ({ cx, params }) => validateIssueConfig(cx, repoRef(params)),
  }),
];
