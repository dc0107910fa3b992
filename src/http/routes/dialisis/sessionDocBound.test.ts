// The largest session document the contract allows stays far below MongoDB's 16 MiB: every list at the highest maximum a
// company may set (POLICY_RANGES), every entry the largest its request schema accepts (each string at its maxLength in
// 4-byte characters), folded through the read model's own fold. A schema that lets a list or a string grow without a
// bound fails here, as does a maximum raised past what a document can hold.
import assert from 'node:assert/strict';
import { BSON } from 'mongodb';
import type { JsonSchema } from '../../routeTypes.js';
import { DEFAULT_POLICY, POLICY_RANGES, type CompanyPolicy } from '../../../commands/empresas/shared/policySettings.js';
import { foldSession, type SessionDoc } from '../../../projections/dialisis/sessionDoc.js';
import type { RecordedEvent } from '../../../stores/eventStore.js';
import { sessionView } from '../../../queries/dialisis/sessions.js';
import { IssueBody } from './prescriptionSchemas.js';
import { ExtraSessionBody } from './scheduleSchemas.js';
import * as sessionSchemas from './sessionSchemas.js';

const MiB = 1024 * 1024;
/** Half of MongoDB's document limit: room for the store's own fields and for what later issues add. */
const BUDGET_BYTES = 8 * MiB;
/** The widest character a string may hold: 4 bytes of UTF-8 (and of BSON), one character for maxLength. */
const WIDE = '\u{1D11E}';
const ID = '00000000-0000-4000-8000-000000000000';
const AT = '2025-03-03T08:00:00.000Z';

type Schema = JsonSchema & Record<string, unknown>;
const size = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** The largest instance of a request schema; a string or list without a bound throws. */
function largest(schema: Schema, where = '#'): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return [...(schema.enum as unknown[])].sort((a, b) => size(b) - size(a))[0];
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (choices) return choices.map((c, i) => largest(c, `${where}/${i}`)).sort((a, b) => size(b) - size(a))[0];
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      assert.equal(schema.additionalProperties, false, `${where} must list its properties`);
      return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, largest(p, `${where}/${k}`)]));
    }
    case 'array':
      assert.ok(typeof schema.maxItems === 'number', `${where} is a list without maxItems`);
      return Array.from({ length: schema.maxItems }, (_, i) => largest(schema.items as Schema, `${where}/${i}`));
    case 'string':
      if (schema.format === 'uuid') return ID;
      if (schema.format === 'date-time') return AT;
      if (schema.format === 'date') return AT.slice(0, 10);
      assert.ok(typeof schema.maxLength === 'number', `${where} is a string without maxLength`);
      return WIDE.repeat(schema.maxLength);
    case 'number':
    case 'integer':
      return -123456789.12345679; // the longest a number prints; BSON stores every number in 8 bytes anyway
    case 'boolean':
      return false;
    default:
      throw new Error(`${where}: no bound known for ${JSON.stringify(schema).slice(0, 80)}`);
  }
}

type Limit = keyof CompanyPolicy['sessionLimits'];
/** The highest maximum a company may set. */
const highest = (limit: Limit): number => POLICY_RANGES[`/sessionLimits/${limit}`]!.max;
const times = <T>(n: number, make: (i: number) => T[]): T[] => Array.from({ length: n }, (_, i) => make(i)).flat();
const body = (schema: JsonSchema) => largest(schema) as Record<string, unknown>;

/** Every event a session can have, each as large as the contract allows, as many as the highest maximums allow. */
function maximalHistory(max: (limit: Limit) => number): { type: string; data: unknown }[] {
  const signer = { userId: ID, staffId: ID };
  const { code: _c, ...amendment } = body(sessionSchemas.AmendBody);
  const changes = amendment.changes as Record<string, unknown>;
  const { code: _a, ...addendum } = body(sessionSchemas.AddendumBody);
  const equipment = { machineId: ID, stationId: ID, dialyzerId: ID, arterialLineId: ID, venousLineId: ID };
  const prescription = { ...body(IssueBody), version: 1, prescribedBy: signer, validTo: AT.slice(0, 10) };
  const warnings = Array.from({ length: 10 }, () => 'preventive-maintenance-overdue');
  return [
    { type: 'SessionScheduled', data: { ...body(ExtraSessionBody), sessionId: ID, locationId: ID, planId: ID } },
    { type: 'PatientCheckedIn', data: { checkedInAt: AT } },
    { type: 'PreDialysisRecorded', data: body(sessionSchemas.PreBody) },
    { type: 'SafetyChecksRecorded', data: body(sessionSchemas.SafetyBody) },
    { type: 'SessionStarted', data: { ...equipment, startedAt: AT, prescription, warnings } },
    ...times(max('pauses'), () => [
      { type: 'SessionPaused', data: { pausedAt: AT, ...body(sessionSchemas.PauseBody) } },
      { type: 'SessionResumed', data: { resumedAt: AT } },
    ]),
    ...times(max('readings'), (i) => [{ type: 'ReadingRecorded', data: { ...body(sessionSchemas.ReadingBody), readingId: `${i}${ID}` } }]),
    ...times(max('complications'), (i) => [
      { type: 'ComplicationRecorded', data: { ...body(sessionSchemas.ComplicationBody), complicationId: `${i}${ID}` } },
    ]),
    ...times(max('medications'), (i) => [
      { type: 'MedicationAdministered', data: { ...body(sessionSchemas.MedicationBody), medicationId: `${i}${ID}` } },
    ]),
    { type: 'SessionInterrupted', data: { ...body(sessionSchemas.InterruptBody), interruptedAt: AT, effectiveMinutes: 240 } },
    { type: 'PostDialysisRecorded', data: body(sessionSchemas.PostBody) },
    // The end's consequences: the machine, dialyzer, lines and authorization, then one supply per kit item (at most 50)
    // and per medication, each refused with a message of the server's (never longer than 500 characters).
    ...times(5 + 50 + max('medications'), (i) => [
      {
        type: 'ConsequenceRefused',
        data: { kind: 'supply', itemId: `${ID}:${WIDE.repeat(40)}`, causeEventId: `${i}`, code: 'x'.repeat(40), message: WIDE.repeat(500) },
      },
    ]),
    { type: 'SessionSignedByNurse', data: { ...signer, signedAt: AT } },
    // Every amendment after a validation: each withdrawn validation stays on the record too.
    ...times(max('amendments'), () => [
      { type: 'SessionValidatedByPhysician', data: { ...signer, validatedAt: AT } },
      {
        type: 'SessionAmended',
        data: { ...amendment, previous: changes, policyRevision: 1, amendedBy: signer, returnsToValidation: true },
      },
    ]),
    ...times(max('addenda'), () => [{ type: 'SessionAddendumRecorded', data: { ...addendum, addedBy: signer } }]),
  ];
}

function fold(history: { type: string; data: unknown }[]): SessionDoc {
  let doc: SessionDoc | null = null;
  history.forEach((e, revision) => {
    const consequence = e.type.startsWith('Consequence');
    const stream = consequence ? `t1.sessionConsequences-${ID}` : `t1.dialysisSession-${ID}`;
    const metadata = { tenantId: 't1', actor: `client:${ID}`, sessionId: ID, correlationId: ID, causationId: null, commandId: ID };
    const recorded = { id: ID, type: e.type, data: e.data, streamName: stream, revision, position: BigInt(revision) };
    doc = foldSession(doc, {
      ...recorded,
      metadata: { ...metadata, occurredAt: AT, ip: null, userAgent: null, reason: null },
    } as RecordedEvent);
  });
  return doc!;
}

describe('the largest session document', () => {
  it(`stays under ${BUDGET_BYTES / MiB} MiB (half of MongoDB's 16 MiB) with every list at the highest maximum a company may set`, () => {
    const doc = fold(maximalHistory(highest));
    assert.equal(doc.readings.length, highest('readings'));
    assert.equal(doc.amendments.length, highest('amendments'));
    assert.equal(doc.earlierValidations.length, highest('amendments'));
    assert.equal(doc.pauses.length, highest('pauses'));
    const bson = BSON.calculateObjectSize(doc);
    const json = size(sessionView(doc));
    console.log(`      largest session document: BSON ${(bson / MiB).toFixed(2)} MiB, JSON view ${(json / MiB).toFixed(2)} MiB`);
    assert.ok(bson < BUDGET_BYTES, `BSON ${bson} bytes`);
    assert.ok(json < BUDGET_BYTES, `JSON ${json} bytes`);
  });

  it('with the default maximums (300 readings, 50 complications, 50 medications, 20 pauses, 100 amendments, 50 addenda)', () => {
    const doc = fold(maximalHistory((limit) => DEFAULT_POLICY.sessionLimits[limit]));
    const bson = BSON.calculateObjectSize(doc);
    console.log(`      with the default maximums: BSON ${(bson / MiB).toFixed(2)} MiB`);
    assert.ok(bson < BUDGET_BYTES, `BSON ${bson} bytes`);
  });

  it('refuses to measure a schema whose list or text has no bound', () => {
    assert.throws(() => largest({ type: 'array', items: { type: 'string', maxLength: 1 } }), /without maxItems/);
    assert.throws(() => largest({ type: 'string' }), /without maxLength/);
  });
});
