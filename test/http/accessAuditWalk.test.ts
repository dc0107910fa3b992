// Every read that names a patient is audited, walked from the route declarations: a route added later whose answer,
// path or query names a patient fails here until it declares auditAccess (issue 20 item 6).
import assert from 'node:assert/strict';
import { registeredGroups } from '../../src/http/groups.js';
import type { JsonSchema, RouteDecl } from '../../src/http/routeTypes.js';
import { PatientSummary, PatientView } from '../../src/http/routes/pacientes/viewSchemas.js';

/** Properties that name a patient wherever they sit in an answer. */
const PATIENT_FIELDS = new Set(['patientId', 'pacienteId', 'patient', 'paciente', 'patientIds', 'patientName', 'patientDocument']);
const PATIENT_SCHEMAS = new Set<unknown>([PatientView, PatientSummary]);

/** Answers that are not JSON say what they hold here: a new one fails until it is classified. */
const NON_JSON_NAMES_PATIENT: Record<string, boolean> = {
  'GET /docs': false,
  'GET /docs/assets/{file}': false,
  'GET /panel': false,
  'GET /panel/assets/{file}': false,
  'GET /dialisis/sesiones/{id}/hoja': true, // the session sheet: identification of the patient
  'GET /filtros-dialisis/{id}/etiqueta': true, // the dialyzer label: patient name and document
  'GET /sistema/exportaciones/{id}/eventos': true, // a company export: every patient's events
  'GET /sistema/exportaciones/{id}/registros': true, // and every patient's records
  'GET /widgets/tableros/{id}/eventos': true, // a dashboard live: panels may list patients (one entry per stream)
};

function schemaNamesPatient(node: unknown, seen = new Set<unknown>()): boolean {
  if (!node || typeof node !== 'object' || seen.has(node)) return false;
  seen.add(node);
  if (PATIENT_SCHEMAS.has(node)) return true;
  const properties = (node as JsonSchema).properties;
  if (properties && typeof properties === 'object' && Object.keys(properties).some((p) => PATIENT_FIELDS.has(p))) return true;
  return Object.values(node).some((inner) => schemaNamesPatient(inner, seen));
}

const label = (r: RouteDecl): string => `${r.method.toUpperCase()} ${r.path}`;
const answers = (r: RouteDecl) => Object.entries(r.responses).filter(([status]) => Number(status) >= 200 && Number(status) < 300);
const isJson = (contentType: string | undefined): boolean => !contentType || /[/+]json\b/i.test(contentType);

/** Why a read names a patient, or null: its JSON answer, a non-JSON answer classified so, its path or its query. */
function namesPatient(r: RouteDecl, reads: Map<string, RouteDecl>): string | null {
  for (const [status, answer] of answers(r)) {
    if (!isJson(answer.contentType)) {
      const classified = NON_JSON_NAMES_PATIENT[label(r)];
      assert.notEqual(classified, undefined, `${label(r)} answers ${answer.contentType}: classify it in NON_JSON_NAMES_PATIENT`);
      if (classified) return `its ${status} ${answer.contentType} answer names the patient`;
    } else if (schemaNamesPatient(answer.schema)) return `its ${status} answer schema names a patient`;
  }
  if (/\{(patientId|pacienteId)\}|^\/pacientes\/\{/.test(r.path)) return 'its path names a patient';
  const query = Object.keys((r.query?.properties as Record<string, unknown> | undefined) ?? {});
  if (query.some((q) => PATIENT_FIELDS.has(q))) return 'its query names a patient';
  // The history of a record that names a patient holds the patient in its events.
  const record = reads.get(r.path.replace(/\/(historial|versiones)$/, ''));
  if (record && record !== r && namesPatient(record, reads)) return 'it is the history of a record that names a patient';
  return null;
}

describe('access audit: the route walk', () => {
  const routes = registeredGroups().flatMap((g) => g.routes);
  // Reads: a write answers with what the same actor just wrote, and its event already records who, when and from where.
  const reads = new Map(routes.filter((r) => r.method === 'get').map((r) => [r.path, r]));

  it('every read whose answer, path or query names a patient declares auditAccess', () => {
    const flagged = [...reads.values()].map((r) => [r, namesPatient(r, reads)] as const).filter(([, why]) => why !== null);
    const missing = flagged.filter(([r]) => !r.auditAccess).map(([r, why]) => `${label(r)} (${why})`);
    assert.deepEqual(missing, [], 'reads naming a patient without an access audit declaration');
    assert.ok(flagged.length >= 40, `${flagged.length} reads name a patient`); // a detector that matches nothing fails
  });

  it('finds the patient in an answer schema, in a path and in a query, and in the history of such a record', () => {
    const why = (path: string) => namesPatient(reads.get(path)!, reads);
    assert.match(why('/dialisis/sesiones/{id}') ?? '', /answer schema/);
    assert.match(why('/pacientes/{id}') ?? '', /answer schema/);
    assert.match(why('/dialisis/sesiones/{id}/hoja') ?? '', /application\/pdf/);
    assert.match(why('/monitores/{id}/puede-iniciar') ?? '', /query/);
    assert.match(why('/dialisis/sesiones/{id}/historial') ?? '', /history/);
    assert.equal(why('/productos'), null);
  });

  it('every audit declaration names its record for a refused read too, from the input as the request sent it', () => {
    for (const r of routes.filter((route) => route.auditAccess !== undefined)) {
      const params = Object.fromEntries([...r.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, 'asked-for']));
      const accessed = r.auditAccess?.({ params, query: {}, body: undefined, headers: {} }, { status: 404 });
      assert.ok(accessed && accessed.recordType.length > 0, `${label(r)} names no record type`);
    }
  });
});
