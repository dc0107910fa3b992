// The platform's own account operations beside deactivation: find an account by e-mail (operators know addresses,
// routes take ids) and reset its second factor (lost phone) with a reason, for any account, company-owned or not.
import Type from 'typebox';
import { route, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { writeHeaders } from '../../recordHeaders.js';
import { resetSecondFactor } from '../../../commands/platform/usuariosWrites.js';
import { platformCollections } from '../../../queries/platform/memberships.js';
import { PLATFORM_DOCS } from '../../../stores/readStore.js';
import { notFound } from '../../../commands/decider.js';
import { closed } from '../shared/fieldSchemas.js';
import { behind503, callerOf, ok, WRITE_HEADERS } from '../shared/adminSupport.js';
import { ReasonBody, UserIdParams } from './schemas.js';
import { TAG } from './userRoutes.js';

const AccountSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    active: Type.Boolean(),
    activated: Type.Boolean(),
    totpStatus: Type.Enum(['none', 'pending', 'confirmed'], { type: 'string' }),
    platformAdmin: Type.Boolean(),
  },
  { additionalProperties: false },
);

const accountOf = (u: {
  id: string;
  email: string;
  name: string;
  active: boolean;
  activated: boolean;
  totpStatus: string;
  platformAdmin: boolean;
}) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  active: u.active,
  activated: u.activated,
  totpStatus: u.totpStatus as 'none' | 'pending' | 'confirmed',
  platformAdmin: u.platformAdmin,
});

export const platformAccountRoutes: RouteDecl[] = [
  route({
    method: 'get',
    path: '/usuarios/por-email/{email}',
    tag: TAG,
    auth: 'platform',
    summary: 'Platform: the account of an e-mail',
    params: closed({ email: Type.String({ format: 'email', maxLength: 254 }) }),
    responses: { 200: ok('The account', AccountSchema), 404: problem('No account has this address') },
    async handle({ params }, ctx) {
      const user = await platformCollections(ctx.services).users.findOne(PLATFORM_DOCS, { email: params.email.trim().toLowerCase() });
      if (!user) throw notFound('user');
      return { status: 200, body: accountOf(user) };
    },
  }),
  route({
    method: 'post',
    path: '/usuarios/{id}/segundo-factor/reinicio',
    tag: TAG,
    auth: 'platform',
    summary: "Platform: reset an account's second factor (its sessions end; it enrolls again at sign-in)",
    params: UserIdParams,
    body: ReasonBody,
    responses: { 200: ok('The account', AccountSchema, WRITE_HEADERS), 404: problem('No such user'), 503: behind503 },
    async handle({ params, body }, ctx) {
      const users = platformCollections(ctx.services).users;
      if (!(await users.get(PLATFORM_DOCS, params.id))) throw notFound('user');
      const position = await resetSecondFactor(ctx.services, params.id, callerOf(ctx, body.reason));
      const user = (await users.get(PLATFORM_DOCS, params.id))!;
      return { status: 200, body: accountOf(user), headers: writeHeaders({ position }) };
    },
  }),
];
