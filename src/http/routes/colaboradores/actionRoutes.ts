// Sub-resources of a staff record: licence registration or renewal, serology, HBV vaccination, position change, user
// link, termination and rehire. If-Match is optional on each (412 when it names an older revision).
import type { CommandResult, CommandContext } from '../../../commands/handleCommand.js';
import type { HbvDose, IsoDate, Licence, StaffSerology } from '../../../commands/colaboradores/staffTypes.js';
import { changeStaffPosition, linkStaffToUser, rehireStaff, staffCommand } from '../../../commands/colaboradores/staffWrites.js';
import { streamName, type EventStore } from '../../../stores/eventStore.js';
import { STAFF_CATEGORY } from '../../../commands/colaboradores/staffEvents.js';
import { notFoundProblem } from '../../../problems.js';
import { ifMatchHeader, ifMatchRevision } from '../../recordHeaders.js';
import { route, type JsonSchema, type RequestContext, type RouteDecl } from '../../routeTypes.js';
import {
  commandCtx,
  tenantCtx,
  conflict409,
  ok,
  precondition412,
  RECORD_HEADERS,
  withFieldPointers,
  type NoInput,
} from '../shared/recordSupport.js';
import {
  DoseSchema,
  LicenceSchema,
  LinkBody,
  PositionChangeBody,
  RehireBody,
  SerologySchema,
  StaffView,
  TAG,
  TerminationBody,
  WRITE,
} from './schemas.js';
import { notFound404, Params, requireMember, staffAnswer, type IdParams } from './support.js';

interface Action<B> {
  path: string;
  summary: string;
  description?: string;
  body: JsonSchema;
  status: 200 | 201;
  reason?: (body: B) => string | undefined;
  before?: (body: B, ctx: RequestContext) => Promise<void>;
  run(events: EventStore, ctx: CommandContext, staffId: string, body: B, ifMatch: number | null): Promise<CommandResult<unknown>>;
}

const action = <B>(a: Action<B>): RouteDecl =>
  route<IdParams, NoInput, B>({
    method: 'post',
    path: `/colaboradores/{id}/${a.path}`,
    tag: TAG,
    auth: 'tenant',
    permission: WRITE,
    summary: a.summary,
    ...(a.description ? { description: a.description } : {}),
    params: Params,
    body: a.body,
    requestHeaders: { 'If-Match': ifMatchHeader(false) },
    responses: {
      [a.status]:
        a.status === 201
          ? ok('The staff record with the new entry', StaffView, { ...RECORD_HEADERS, Location: 'URL of the staff record' })
          : ok('The staff record', StaffView),
      404: notFound404,
      409: conflict409,
      412: precondition412,
    },
    handle: (input, ctx) =>
      withFieldPointers(async () => {
        const ifMatch = ifMatchRevision(input.headers['if-match']);
        if (a.before) {
          // Another company's record answers 404 before anything in the body is judged.
          const stream = streamName(tenantCtx(ctx).auth.tenantId, STAFF_CATEGORY, input.params.id);
          const first = await ctx.services.events.readStream(stream, { maxCount: 1 });
          if (first.length === 0) throw notFoundProblem('Staff member not found');
          await a.before(input.body, ctx);
        }
        const cctx = commandCtx(ctx, a.reason?.(input.body) ?? null);
        const result = await a.run(ctx.services.events, cctx, input.params.id, input.body, ifMatch);
        return staffAnswer(ctx, input.params.id, result, a.status);
      }),
  });

export const actionRoutes: RouteDecl[] = [
  action<Licence>({
    path: 'licencia',
    summary: 'Register or renew the professional licence',
    description: 'The first licence is registered (StaffLicenseRegistered); a later one renews it and may not expire earlier (422).',
    body: LicenceSchema,
    status: 200,
    run: (events, ctx, id, body, ifMatch) => staffCommand(events, ctx, id, 'RegisterStaffLicence', body, ifMatch),
  }),
  action<StaffSerology>({
    path: 'serologias',
    summary: 'Record a serology result (HBsAg, anti-HBs, anti-HCV, HIV)',
    body: SerologySchema,
    status: 201,
    run: (events, ctx, id, body, ifMatch) => staffCommand(events, ctx, id, 'RecordStaffSerology', body, ifMatch),
  }),
  action<HbvDose>({
    path: 'vacunas-hbv',
    summary: 'Record a hepatitis B vaccine dose (each dose number once: 409 dose-already-recorded)',
    body: DoseSchema,
    status: 201,
    run: (events, ctx, id, body, ifMatch) => staffCommand(events, ctx, id, 'RecordStaffVaccination', body, ifMatch),
  }),
  action<{ positionId: string; effectiveDate?: IsoDate; reason?: string }>({
    path: 'cambio-cargo',
    summary: 'Give the staff member another job position',
    description: 'The position must be an active one of the company, and its licence requirement met (422 naming positionId or licence).',
    body: PositionChangeBody,
    status: 200,
    reason: (body) => body.reason,
    run: (events, ctx, id, { positionId, effectiveDate }, ifMatch) =>
      changeStaffPosition(events, ctx, id, { positionId, ...(effectiveDate ? { effectiveDate } : {}) }, ifMatch),
  }),
  action<{ userId: string }>({
    path: 'usuario',
    summary: 'Link the staff record to a user account of the company',
    description:
      'The user must be a member of the company (422) and linked to no other staff record (409 user-already-linked); a previous link is replaced.',
    body: LinkBody,
    status: 200,
    before: (body, ctx) => requireMember(ctx, body.userId, '/body/userId'),
    run: (events, ctx, id, body, ifMatch) => linkStaffToUser(events, ctx, id, body.userId, ifMatch),
  }),
  action<{ terminationDate: IsoDate; reason: string }>({
    path: 'cese',
    summary: 'Terminate the employment',
    description: 'Afterwards the record takes corrections only (409 staff-terminated), until a rehire (/reingreso).',
    body: TerminationBody,
    status: 200,
    reason: (body) => body.reason,
    run: (events, ctx, id, body, ifMatch) => staffCommand(events, ctx, id, 'TerminateStaff', body, ifMatch),
  }),
  action<{ hireDate: IsoDate; positionId?: string; reason: string }>({
    path: 'reingreso',
    summary: 'Rehire a terminated staff member',
    description:
      'The same record (document, licence, serology, user link) becomes active again from hireDate; the earlier employment stays in ' +
      'the history. Only a terminated record (409 staff-not-terminated); the position must be active and its licence requirement met (422).',
    body: RehireBody,
    status: 200,
    reason: (body) => body.reason,
    run: (events, ctx, id, body, ifMatch) => rehireStaff(events, ctx, id, body, ifMatch),
  }),
];
