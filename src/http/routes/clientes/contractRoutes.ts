// /clientes/{id}/contratos: sign, list, read, terminate early; and the rate in force on a date.
import Type from 'typebox';
import { recordAnswer, type RecordAnswerModel } from '../../recordAnswer.js';
import { AsOfFields, asOfHeaders, pointOf } from '../../recordAsOf.js';
import type { RouteDecl } from '../../routeTypes.js';
import { newId, uuidV5 } from '../../../commands/eventIds.js';
import { clientCommand } from '../../../commands/clientes/clientWrites.js';
import { clientModel, contractIn, contractView, rateInForce } from '../../../queries/clientes/clients.js';
import type { ClientDoc } from '../../../projections/clientes/clientDoc.js';
import { commandCtx, conflict409, createdOk, ok, READ_HEADERS, tenantCtx, withFieldPointers } from '../shared/recordSupport.js';
import { DateSchema, IdParams } from '../shared/fieldSchemas.js';
import { ContractBody, ContractIdParams, ContractView, RateView, READ, TAG, TerminateBody, WRITE } from './schemas.js';
import { underClient404 } from './support.js';
import { groupRoutes } from '../shared/groupRoutes.js';

const routes = groupRoutes(TAG);

const AsOfQuery = Type.Object(AsOfFields, { additionalProperties: false });

/** A contract is answered from its client's record: the client's revision is the contract's ETag. */
const contractRecord = (clientId: string, contractId: string): RecordAnswerModel<ClientDoc> => ({
  latest: clientModel.latest,
  view: (doc) => contractView(contractIn(doc, contractId), clientId),
});

const RateQuery = Type.Object(
  {
    date: DateSchema,
    serviceCode: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Service code, e.g. 90935' })),
  },
  { additionalProperties: false },
);

export const contractRoutes: RouteDecl[] = [
  routes.post('/clientes/{id}/contratos', WRITE, {
    idempotent: true,
    summary: 'Sign a contract with the client: service, validity, rate per session, inclusions, authorization rules',
    description:
      'One contract per client and service at a time: a validity that shares a day with another contract of the same service ' +
      '(terminated ones count up to their last day) answers 409 contract-overlap. The number is unique per client (409). ' +
      'An inactive client signs none (409 client-inactive).',
    params: IdParams,
    body: ContractBody,
    responses: {
      201: createdOk('The new contract', ContractView, 'URL of the contract'),
      404: underClient404,
      409: conflict409,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const clientId = input.params.id;
        const contractId = ctx.idempotencyKey ? uuidV5(`contract\u0000${ctx.idempotencyKey}`) : newId();
        const result = await clientCommand(
          ctx.services.events,
          commandCtx(ctx),
          clientId,
          { type: 'SignContract', data: { ...input.body, contractId } },
          null,
        );
        const location = `/clientes/${clientId}/contratos/${contractId}`;
        return recordAnswer(ctx, contractRecord(clientId, contractId), clientId, result, 201, { location });
      }),
  }),
  routes.get('/clientes/{id}/contratos', READ, {
    summary: "The client's contracts, by start of validity",
    params: IdParams,
    responses: {
      200: { description: 'The contracts', schema: Type.Object({ items: Type.Array(ContractView) }) },
      404: underClient404,
    },
    handle: async (input, ctx) => {
      const doc = await clientModel.or404(tenantCtx(ctx), input.params.id);
      const items = [...doc.contracts].sort((a, b) => a.validFrom.localeCompare(b.validFrom)).map((c) => contractView(c, doc.id));
      return { status: 200, body: { items } };
    },
  }),
  routes.get('/clientes/{id}/tarifa', READ, {
    legacyQuery: ['fecha', 'servicio'],
    summary: 'The rate in force: the contract of the service whose validity holds the date (contract null when none)',
    params: IdParams,
    query: RateQuery,
    responses: { 200: { description: 'The contract in force on that date', schema: RateView }, 404: underClient404 },
    handle: async (input, ctx) => ({
      status: 200,
      body: await rateInForce(tenantCtx(ctx), input.params.id, input.query.serviceCode, input.query.date),
    }),
  }),
  routes.get('/clientes/{id}/contratos/{contractId}', READ, {
    summary: 'Read a contract',
    params: ContractIdParams,
    query: AsOfQuery,
    responses: { 200: { description: 'The contract', schema: ContractView, headers: READ_HEADERS }, 404: underClient404 },
    handle: async (input, ctx) => {
      const point = pointOf(input.query);
      if (point) {
        // The contract as it was in its client's record then (a contract signed later: 404 as absent then).
        const at = await clientModel.at(tenantCtx(ctx), input.params.id, point);
        const body = contractView(contractIn(at.doc, input.params.contractId), at.doc.id);
        return { status: 200, body, headers: await asOfHeaders(ctx, at) };
      }
      const doc = await clientModel.or404(tenantCtx(ctx), input.params.id);
      return { status: 200, body: contractView(contractIn(doc, input.params.contractId), doc.id) };
    },
  }),
  routes.post('/clientes/{id}/contratos/{contractId}/terminacion', WRITE, {
    summary: 'Terminate a contract early with a reason: endsOn becomes its last day in force',
    params: ContractIdParams,
    body: TerminateBody,
    responses: { 200: ok('The terminated contract', ContractView), 404: underClient404, 409: conflict409 },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const { id, contractId } = input.params;
        const data = { contractId, ...input.body };
        const result = await clientCommand(
          ctx.services.events,
          commandCtx(ctx, input.body.reason),
          id,
          { type: 'TerminateContract', data },
          null,
        );
        return recordAnswer(ctx, contractRecord(id, contractId), id, result, 200);
      }),
  }),
];
