// The entries one read of an audited route leaves: the patients its answer names (found anywhere in the JSON, or
// declared for a CSV or PDF), split over entries of a bounded size, and the outcome of a refused read.
import assert from 'node:assert/strict';
import type { AccessAuditWriter, AccessRecord } from '../../src/http/accessAudit.js';
import { LIMITS } from '../../src/limits.js';
import type { Logger } from '../../src/logger.js';
import { PreparedJson } from '../../src/http/preparedJson.js';
import { attemptedRecord, auditRead, pageItemIds, patientIdsIn, type Reader } from '../../src/http/routeAudit.js';
import { route, type HttpResult, type RouteDecl, type RouteInput } from '../../src/http/routeTypes.js';

const logged: string[] = [];
const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (msg) => void logged.push(msg) };
const recorded: AccessRecord[] = [];
const writer = { record: (entry: AccessRecord) => void recorded.push(entry) } as unknown as AccessAuditWriter;
const deps = { accessAudit: writer, logger };
const reader: Reader = {
  principal: { userId: 'u1', sessionId: 's1', email: 'u1@x', tenantId: 't1', permissions: new Set(), platformAdmin: false, company: null },
  tenantId: 't1',
  correlationId: 'c1',
  ip: null,
  userAgent: null,
  at: '2026-11-26T10:00:00.000Z',
};
const input: RouteInput = { params: { id: 'r1' }, query: {}, body: undefined, headers: {} };
const listRoute = (audit: RouteDecl['auditAccess']): RouteDecl =>
  route({
    method: 'get',
    path: '/things',
    tag: 'T',
    summary: 's',
    auth: 'tenant',
    responses: {},
    auditAccess: audit,
    handle: () => Promise.reject(new Error('unused')),
  });

describe('access audit of a route read', () => {
  beforeEach(() => {
    recorded.length = 0;
    logged.length = 0;
  });

  it('finds patientId, pacienteId and the id of patient objects anywhere in an answer, once each', () => {
    const body = { items: [{ patientId: 'p1', data: { pacienteId: 'p2' } }, { patient: { id: 'p3', name: 'x' } }, { patientId: 'p1' }] };
    assert.deepEqual(patientIdsIn(body).sort(), ['p1', 'p2', 'p3']);
  });

  it('splits a read naming many patients over entries of a bounded size', () => {
    const per = LIMITS.accessAudit.patientIdsPerEntry;
    const items = Array.from({ length: per * 2 + 5 }, (_, n) => ({ patientId: `p${n}` }));
    auditRead(
      deps,
      listRoute(() => ({ recordType: 'thingList', recordId: null })),
      input,
      { status: 200, body: { items } },
      reader,
    );
    assert.deepEqual(
      recorded.map((e) => e.patientIds?.length),
      [per, per, 5],
    );
    assert.ok(recorded.every((e) => e.outcome === 'allowed' && e.recordType === 'thingList'));
  });

  it("takes the patients of a prepared page from its items, and a CSV's from what the handler declared", () => {
    const page = PreparedJson.of({ items: [{ id: 'p1' }, { id: 'p2' }] });
    const patients = listRoute((_i, result) => ({ recordType: 'patientList', recordId: null, patientIds: pageItemIds(result) }));
    auditRead(deps, patients, input, { status: 200, body: page }, reader);
    const csv: HttpResult = { status: 200, body: 'a,b\r\n', contentType: 'text/csv', auditPatientIds: ['p9', 'p9'] };
    auditRead(
      deps,
      listRoute(() => ({ recordType: 'report', recordId: 'r1' })),
      input,
      csv,
      reader,
    );
    assert.deepEqual(
      recorded.map((e) => e.patientIds),
      [['p1', 'p2'], ['p9']],
    );
  });

  it('records a refused read with its outcome, and nothing for other failures; a failing declaration is logged, not thrown', () => {
    const one = listRoute((i) => ({ recordType: 'thing', recordId: (i.params as { id: string }).id }));
    for (const status of [403, 404, 409, 503]) auditRead(deps, one, input, { status }, reader);
    assert.deepEqual(
      recorded.map((e) => [e.status, e.outcome, e.recordId]),
      [
        [403, 'denied', 'r1'],
        [404, 'not-found', 'r1'],
      ],
    );
    auditRead(
      deps,
      listRoute(() => {
        throw new Error('broken');
      }),
      input,
      { status: 200, body: {} },
      reader,
    );
    assert.deepEqual(logged, ['access audit hook failed']);
  });

  it('a refused attempt at a write route names its group, the {id} it named and, under /pacientes/{id}, that patient', () => {
    const named = (path: string, params: Record<string, unknown>) => attemptedRecord({ path }, { ...input, params });
    assert.deepEqual(named('/pacientes/{id}/notas', { id: 'p1' }), { recordType: 'pacientes', recordId: 'p1', patientIds: ['p1'] });
    assert.deepEqual(named('/monitores/{id}/mantenimientos', { id: 'm1' }), { recordType: 'monitores', recordId: 'm1', patientIds: [] });
    assert.deepEqual(named('/pacientes', {}), { recordType: 'pacientes', recordId: null, patientIds: [] });
  });
});
