// Platform: rotate the token-signing key and/or the chain checkpoint key (`dialysis-ops keys rotate`).
import Type from 'typebox';
import { route, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { writeHeaders } from '../../recordHeaders.js';
import { ProblemError } from '../../../problems.js';
import { rotateKeys, TOTP_KEY_NOT_ROTATED } from '../../../commands/platform/keyRotationWrites.js';
import { closed } from '../shared/fieldSchemas.js';
import { callerOf, ok, reasonSchema, WRITE_HEADERS } from '../shared/adminSupport.js';
import { KeyConfiguredError } from '../../../auth/keyFiles.js';

const Key = Type.Enum(['tokens', 'chain'], { type: 'string' });
const RotatedSchema = Type.Object(
  {
    rotated: Type.Array(Type.Object({ key: Key, keyId: Type.String(), previousKeyId: Type.String() })),
    notRotated: Type.String({ description: 'Why the TOTP at-rest key is not' }),
  },
  { additionalProperties: false },
);

export const keyRotationRoutes: RouteDecl[] = [
  route({
    method: 'post',
    path: '/sistema/claves/rotacion',
    tag: 'Sistema',
    auth: 'platform',
    summary: 'Platform: rotate the token and/or chain signing keys (old tokens verify until they expire)',
    body: closed({ keys: Type.Array(Key, { minItems: 1, uniqueItems: true }), reason: reasonSchema }),
    responses: { 200: ok('Rotated', RotatedSchema, WRITE_HEADERS), 409: problem('A key set by configuration') },
    handle: async ({ body }, ctx) => {
      try {
        const { rotated, position } = await rotateKeys(ctx.services, body.keys, callerOf(ctx, body.reason));
        return { status: 200, body: { rotated, notRotated: TOTP_KEY_NOT_ROTATED }, headers: writeHeaders({ position }) };
      } catch (err) {
        if (err instanceof KeyConfiguredError) throw new ProblemError(409, 'key-configured', 'Conflict', err.message);
        throw err;
      }
    },
  }),
];
