// Tamper evidence over HTTP: verify the company's hash chain in the background, list its signed checkpoints, export
// chain segments and publish the public key, so an auditor can check the log without trusting the service.
import { chainEventJson } from '../../../integrity/chainEventJson.js';
import { AUDIT_PERMISSION } from './auditRoutes.js';
import { route, type RouteDecl } from '../../routeTypes.js';
import { problem } from '../../commonSchemas.js';
import { notFoundProblem } from '../../../problems.js';
import { InvalidCursorError } from '../../../stores/readCursor.js';
import { genesisHash } from '../../../stores/chain/hashChain.js';
import {
  ChainExportQuery,
  ChainExportSchema,
  CheckpointListSchema,
  CheckpointSchema,
  PublicKeySchema,
  SequenceParams,
  TenantParams,
  VerificationParams,
  VerificationSchema,
} from './integritySchemas.js';

const TAG = 'Sistema';
const BASE = '/sistema/integridad';
const verificationUrl = (id: string) => `${BASE}/verificacion/${id}`;

export const integrityRoutes: RouteDecl[] = [
  route({
    method: 'get',
    path: `${BASE}/clave-publica`,
    tag: TAG,
    auth: 'public',
    summary: 'Public key of the chain checkpoints',
    responses: { 200: { description: 'Ed25519', schema: PublicKeySchema } },
    handle: (_input, ctx) => Promise.resolve({ status: 200, body: ctx.services.integrity.publicKey }),
  }),
  route({
    method: 'post',
    path: `${BASE}/verificacion`,
    tag: TAG,
    auth: 'tenant',
    permission: AUDIT_PERMISSION,
    summary: "Verify the company's hash chain (background)",
    responses: {
      202: {
        description: 'Started (or already running)',
        schema: VerificationSchema,
        headers: { Location: 'Its status' },
      },
    },
    handle: (_input, ctx) => {
      const v = ctx.services.integrity.verifications.start(ctx.auth!.tenantId!, ctx.auth!.userId);
      return Promise.resolve({ status: 202, body: v, headers: { Location: verificationUrl(v.id) } });
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/verificacion/{id}`,
    tag: TAG,
    auth: 'tenant',
    permission: AUDIT_PERMISSION,
    summary: 'Progress and outcome of a verification',
    params: VerificationParams,
    responses: {
      200: { description: 'Verification', schema: VerificationSchema },
      404: problem('No such verification (kept until restart)'),
    },
    handle: (input, ctx) => {
      const v = ctx.services.integrity.verifications.get(ctx.auth!.tenantId!, input.params.id);
      if (!v) throw notFoundProblem('No such verification');
      return Promise.resolve({ status: 200, body: v });
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/puntos-de-control`,
    tag: TAG,
    auth: 'tenant',
    permission: AUDIT_PERMISSION,
    summary: "The company's signed chain checkpoints, newest first",
    responses: { 200: { description: 'Signed checkpoints', schema: CheckpointListSchema } },
    handle: async (_input, ctx) => ({ status: 200, body: { items: await ctx.services.integrity.checkpoints.list(ctx.auth!.tenantId!) } }),
  }),
  route({
    method: 'get',
    path: `${BASE}/puntos-de-control/{sequence}`,
    tag: TAG,
    auth: 'tenant',
    permission: AUDIT_PERMISSION,
    summary: 'One signed checkpoint',
    params: SequenceParams,
    responses: { 200: { description: 'Checkpoint', schema: CheckpointSchema }, 404: problem('No such checkpoint') },
    handle: async (input, ctx) => {
      const checkpoint = await ctx.services.integrity.checkpoints.get(ctx.auth!.tenantId!, input.params.sequence);
      if (!checkpoint) throw notFoundProblem(`No checkpoint ${input.params.sequence}`);
      return { status: 200, body: checkpoint };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/cadena`,
    tag: TAG,
    auth: 'tenant',
    permission: AUDIT_PERMISSION,
    summary: "Export the company's hash chain, a page at a time",
    query: ChainExportQuery,
    auditAccess: () => ({ recordType: 'eventLog', recordId: null }),
    responses: {
      200: { description: 'A page', schema: ChainExportSchema },
      400: problem('Not a cursor of this chain'),
    },
    handle: async (input, ctx) => {
      const tenant = ctx.auth!.tenantId!;
      const { events } = ctx.services;
      const limit = input.query.limit ?? 500;
      const { cursor } = input.query;
      if (cursor !== undefined && !/^[0-9]+$/.test(cursor)) throw new InvalidCursorError();
      const after = cursor !== undefined ? BigInt(cursor) : null;
      let previousHash = genesisHash(tenant);
      if (after !== null) {
        const [at] = await events.readChain(tenant, { after: after - 1n, maxCount: 1 });
        if (!at || at.position !== after || at.hash === null) throw new InvalidCursorError();
        previousHash = at.hash;
      }
      const page = await events.readChain(tenant, { ...(after !== null ? { after } : {}), maxCount: limit });
      const genesis = await events.chainGenesis(tenant);
      return {
        status: 200,
        body: {
          tenant,
          genesisPosition: genesis ? String(genesis.fromPosition) : null,
          cursor: after === null ? null : String(after),
          previousHash,
          events: page.map((e) => chainEventJson(e, e.hash)),
          nextCursor: page.length === limit ? String(page[page.length - 1]!.position) : null,
        },
      };
    },
  }),
  route({
    method: 'get',
    path: `${BASE}/empresas/{tenant}/puntos-de-control`,
    tag: TAG,
    auth: 'platform',
    summary: "A company's (or the platform's) signed checkpoints",
    params: TenantParams,
    responses: { 200: { description: 'Signed checkpoints', schema: CheckpointListSchema } },
    handle: async (input, ctx) => ({ status: 200, body: { items: await ctx.services.integrity.checkpoints.list(input.params.tenant) } }),
  }),
];
