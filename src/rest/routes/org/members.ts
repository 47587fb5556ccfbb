import { NotFoundError } from '../../../errors.ts';
import * as memberService from '../../../services/org/member.ts';
import { convertOptions } from '../../convert/options.ts';
import { toApiUserList } from '../../convert/user.ts';
import { defineList } from '../../list.ts';
import { defineRoute } from '../../route.ts';

/** GET /orgs/{org}/members and …/public_members: Gitea sends X-Total-Count but no Link. */
const memberList = (
  doc: { path: string; operationId: string; summary: string; gate: 'none' | 'token'; errors: number[] },
  publicOnly: boolean,
) =>
  defineList({
    ...doc,
    tag: 'organization',
    scopes: ['organization'],
    headers: 'count',
    schema: '[User]',
    load: ({ cx, params, page }) => memberService.listMembers(cx, params.org ?? '', page, publicOnly),
    convert: (result, { cx }) => toApiUserList(result.items, cx.viewer, convertOptions(cx)),
  });

export const memberRoutes = [
  memberList(
    {
      path: '/orgs/{org}/members',
      operationId: 'orgListMembers',
      summary: "List an organization's members",
      gate: 'token',
      errors: [401, 404],
    },
    false,
  ),
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
  memberList(
    {
      path: '/orgs/{org}/public_members',
      operationId: 'orgListPublicMembers',
      summary: "List an organization's public members",
      gate: 'none',
      errors: [404],
    },
    true,
  ),
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
