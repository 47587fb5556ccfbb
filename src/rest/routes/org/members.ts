import { NotFoundError } from '../../../errors.ts';
import * as memberService from '../../../services/org/member.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { listOptions, setTotalCount } from '../../pagination.ts';
import { defineRoute, type ApiInput } from '../../route.ts';

async function list({ cx, params, req, reply }: ApiInput<undefined, undefined>, publicOnly: boolean) {
  const opts = listOptions(req.query as Record<string, unknown>);
  const page = await memberService.listMembers(cx, params.org ?? '', opts, publicOnly);
  setTotalCount(reply, page.total);
  return toApiUserList(page.items, cx.viewer, convertOptions(cx));
}

export const memberRoutes = [
  defineRoute({
    method: 'GET',
    path: '/orgs/{org}/members',
    operationId: 'orgListMembers',
    summary: "List an organization's members",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 200, schema: '[User]' },
    errors: [401, 404],
    handler: (input) => list(input, false),
  }),
  defineRoute({
    method: 'GET',
    path: '/orgs/{org}/members/{username}',
    operationId: 'orgIsMember',
    summary: 'Check if a user is a member of an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 404],
    handler: async ({ cx, params, reply }) => {
      const answer = await memberService.checkMembership(cx, params.org ?? '', params.username ?? '');
      if (answer === 'member') return undefined;
      if (answer === 'not-member') throw new NotFoundError('not found');
      return reply.redirect(
        `/api/v1/orgs/${encodeURIComponent(params.org ?? '')}/public_members/${encodeURIComponent(params.username ?? '')}`,
        303,
      );
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/orgs/{org}/members/{username}',
    operationId: 'orgDeleteMember',
    summary: 'Remove a member from an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404, 422],
    handler: async ({ cx, params }) => {
      await memberService.removeMember(cx, params.org ?? '', params.username ?? '');
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/orgs/{org}/public_members',
    operationId: 'orgListPublicMembers',
    summary: "List an organization's public members",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    success: { status: 200, schema: '[User]' },
    errors: [404],
    handler: (input) => list(input, true),
  }),
  defineRoute({
    method: 'GET',
    path: '/orgs/{org}/public_members/{username}',
    operationId: 'orgIsPublicMember',
    summary: 'Check if a user is a public member of an organization',
    tag: 'organization',
    scopes: ['organization'],
    gate: 'none',
    success: { status: 204 },
    errors: [404],
    handler: async ({ cx, params }) => {
      if (!(await memberService.isPublicMember(cx, params.org ?? '', params.username ?? ''))) throw new NotFoundError('not found');
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/orgs/{org}/public_members/{username}',
    operationId: 'orgPublicizeMember',
    summary: "Publicize a user's membership",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await memberService.setMembershipVisibility(cx, params.org ?? '', params.username ?? '', true);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/orgs/{org}/public_members/{username}',
    operationId: 'orgConcealMember',
    summary: "Conceal a user's membership",
    tag: 'organization',
    scopes: ['organization'],
    gate: 'token',
    success: { status: 204 },
    errors: [401, 403, 404],
    handler: async ({ cx, params }) => {
      await memberService.setMembershipVisibility(cx, params.org ?? '', params.username ?? '', false);
    },
  }),
];
