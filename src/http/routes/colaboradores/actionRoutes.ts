// Sub-resources of a staff record: licence registration or renewal, serology, HBV vaccination, position change, user
// link, termination and rehire. If-Match is optional on each (412 when it names an older revision).
import type { RouteDecl } from '../../routeTypes.js';
import { changeStaffPosition, linkStaffToUser, rehireStaff, staffCommand } from '../../../commands/colaboradores/staffWrites.js';
import { commandCtx } from '../shared/recordSupport.js';
import { DoseSchema, LicenceSchema, LinkBody, PositionChangeBody, RehireBody, SerologySchema, TerminationBody } from './schemas.js';
import { staff } from './support.js';

export const actionRoutes: RouteDecl[] = [
  staff.action({
    path: 'licencia',
    summary: 'Register or renew the professional licence',
    description: 'The first licence is registered (StaffLicenseRegistered); a later one renews it and may not expire earlier (422).',
    body: LicenceSchema,
    handle: (id, body, ctx, ifMatch) => staffCommand(ctx.services.events, commandCtx(ctx), id, 'RegisterStaffLicence', body, ifMatch),
  }),
  staff.action({
    path: 'serologias',
    summary: 'Record a serology result (HBsAg, anti-HBs, anti-HCV, HIV)',
    body: SerologySchema,
    status: 201,
    handle: (id, body, ctx, ifMatch) => staffCommand(ctx.services.events, commandCtx(ctx), id, 'RecordStaffSerology', body, ifMatch),
  }),
  staff.action({
    path: 'vacunas-hbv',
    summary: 'Record a hepatitis B vaccine dose (each dose number once: 409 dose-already-recorded)',
    body: DoseSchema,
    status: 201,
    handle: (id, body, ctx, ifMatch) => staffCommand(ctx.services.events, commandCtx(ctx), id, 'RecordStaffVaccination', body, ifMatch),
  }),
  staff.action({
    path: 'cambio-cargo',
    summary: 'Give the staff member another job position',
    description: 'The position must be an active one of the company, and its licence requirement met (422 naming positionId or licence).',
    body: PositionChangeBody,
    handle: (id, { positionId, effectiveDate, reason }, ctx, ifMatch) =>
      changeStaffPosition(
        ctx.services.events,
        commandCtx(ctx, reason),
        id,
        { positionId, ...(effectiveDate ? { effectiveDate } : {}) },
        ifMatch,
      ),
  }),
  staff.action({
    path: 'usuario',
    summary: 'Link the staff record to a user account of the company',
    description:
      'The user must be a member of the company (422) and linked to no other staff record (409 user-already-linked); a previous link is replaced.',
    body: LinkBody,
    handle: (id, { userId }, ctx, ifMatch) => linkStaffToUser(ctx.services, commandCtx(ctx), id, userId, ifMatch),
  }),
  staff.action({
    path: 'cese',
    summary: 'Terminate the employment',
    description: 'Afterwards the record takes corrections only (409 staff-terminated), until a rehire (/reingreso).',
    body: TerminationBody,
    handle: (id, body, ctx, ifMatch) =>
      staffCommand(ctx.services.events, commandCtx(ctx, body.reason), id, 'TerminateStaff', body, ifMatch),
  }),
  staff.action({
    path: 'reingreso',
    summary: 'Rehire a terminated staff member',
    description:
      'The same record (document, licence, serology, user link) becomes active again from hireDate; the earlier employment stays in ' +
      'the history. Only a terminated record (409 staff-not-terminated); the position must be active and its licence requirement met (422).',
    body: RehireBody,
    handle: (id, body, ctx, ifMatch) => rehireStaff(ctx.services.events, commandCtx(ctx, body.reason), id, body, ifMatch),
  }),
];
