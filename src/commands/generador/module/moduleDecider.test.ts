// The module definition rules as given events / when command / then events (or the refusal naming the field).
import assert from 'node:assert/strict';
import { failedFields, scenario } from '../../givenWhenThen.js';
import type { ModuleDefinition, ModuleField } from '../shared/definitionTypes.js';
import { moduleDecider } from './moduleDecider.js';
import type { ModuleCommand, ModuleEvent } from './moduleEvents.js';

const policy = { reservedCodes: ['pacientes', 'dialisis', 'generador', 'm', 'modulos'], moduleCodes: ['acceso-vascular'] };
const given = scenario(moduleDecider(policy));
const meta = { at: '2026-11-26T10:00:00.000Z', actor: 'u1', tenantId: 't1', aggregateId: 'hepatitis-b' };
const cmd = <C extends ModuleCommand>(type: C['type'], data: C['data']): ModuleCommand => ({ ...meta, type, data }) as ModuleCommand;

const FIELDS: ModuleField[] = [
  { name: 'doseNumber', label: 'Dosis', type: 'integer', required: true, minimum: 1, maximum: 10 },
  { name: 'administeredOn', label: 'Fecha', type: 'date', required: true },
  { name: 'lot', label: 'Lote', type: 'text', maxLength: 40 },
  { name: 'antiHbsTitre', label: 'Anti-HBs', type: 'number', unit: 'mUI/mL', minimum: 0 },
  { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['0-1-6', '0-1-2-12', 'rapid'] },
];
const V1: ModuleDefinition = {
  name: 'Vacunación hepatitis B',
  patientLinked: true,
  fields: FIELDS,
  filterFields: ['schedule'],
  sortFields: ['administeredOn'],
  states: {
    initial: 'recorded',
    states: [
      { name: 'recorded', label: 'Registrada' },
      { name: 'verified', label: 'Verificada' },
    ],
    transitions: [{ name: 'verify', label: 'Verificar', from: ['recorded'], to: 'verified', signs: true }],
  },
};
const defined: ModuleEvent = { type: 'ModuleDefined', data: { code: 'hepatitis-b', definition: V1, version: { major: 1, minor: 0 } } };
const published: ModuleEvent = { type: 'ModulePublished', data: { version: { major: 1, minor: 0 } } };
const withFields = (fields: ModuleField[]): ModuleDefinition => ({ ...V1, fields });

describe('module decider', () => {
  it('defines a module at 1.0, draft', () => {
    given()
      .when(cmd('DefineModule', { code: 'hepatitis-b', definition: V1 }))
      .then(defined);
  });

  it('refuses a taken code (any status) with 409 module-code-taken', () => {
    given(defined, { type: 'ModuleRetired', data: {} })
      .when(cmd('DefineModule', { code: 'hepatitis-b', definition: V1 }))
      .thenError('module-code-taken');
  });

  it('names every broken field: reserved code, bounds, pattern, choices, default, references, lists and states', () => {
    const bad: ModuleDefinition = {
      ...V1,
      fields: [
        { name: 'doseNumber', label: 'Dosis', type: 'integer', minimum: 5, maximum: 1 },
        { name: 'id', label: 'Id', type: 'text' },
        { name: 'lot', label: 'Lote', type: 'text', pattern: '(a+)+$' },
        { name: 'schedule', label: 'Esquema', type: 'choice', choices: ['a', 'a'] },
        { name: 'kind', label: 'Tipo', type: 'choice', choices: ['x'], default: 'y' },
        { name: 'access', label: 'Acceso', type: 'reference', refersTo: 'module', module: 'unknown' },
        { name: 'who', label: 'Quién', type: 'reference' },
        { name: 'lot', label: 'Otra', type: 'text', minimum: 3 },
        { name: 'checks', label: 'Controles', type: 'multi-choice', choices: ['a', 'b'], minItems: 3 },
      ],
      filterFields: ['nothing'],
      states: { ...V1.states!, initial: 'nowhere', transitions: [{ name: 'verify', label: 'V', from: ['x'], to: 'verified' }] },
    };
    given()
      .when(cmd('DefineModule', { code: 'pacientes', definition: bad }))
      .thenError('validation-failed', (e) =>
        assert.deepEqual(failedFields(e).sort(), [
          'code',
          'fields/0/maximum',
          'fields/1/name',
          'fields/2/pattern',
          'fields/3/choices',
          'fields/4/default',
          'fields/5/module',
          'fields/6/refersTo',
          'fields/7/minimum',
          'fields/7/name',
          'fields/8/minItems',
          'filterFields/0',
          'sortFields/0',
          'states/initial',
          'states/transitions/0/from/0',
        ]),
      );
  });

  it('accepts a reference to another module of the company', () => {
    const ref: ModuleField = { name: 'access', label: 'Acceso', type: 'reference', refersTo: 'module', module: 'acceso-vascular' };
    assert.equal(
      given()
        .when(cmd('DefineModule', { code: 'x-1', definition: withFields([...FIELDS, ref]) }))
        .events().length,
      1,
    );
  });

  it('changes a draft freely, keeping 1.0', () => {
    const [event] = given(defined)
      .when(cmd('ChangeModuleDefinition', { definition: withFields(FIELDS.slice(1)) }))
      .events();
    assert.equal(event?.type, 'ModuleDefinitionChanged');
    assert.deepEqual((event?.data as { version: unknown }).version, { major: 1, minor: 0 });
  });

  it('takes a compatible change of a published module as a minor version listing the changes', () => {
    const notes: ModuleField = { name: 'notes', label: 'Notas', type: 'text' };
    const wider = FIELDS.map((f) =>
      f.name === 'doseNumber' ? { ...f, maximum: 12 } : f.name === 'schedule' ? { ...f, choices: [...f.choices!, 'other'] } : f,
    );
    given(defined, published)
      .when(cmd('ChangeModuleDefinition', { definition: withFields([...wider, notes]) }))
      .then({
        type: 'ModuleDefinitionChanged',
        data: {
          definition: withFields([...wider, notes]),
          version: { major: 1, minor: 1 },
          changes: ['doseNumber: maximum widened to 12', "schedule: choice 'other' added", 'notes: optional field added'],
        },
      });
  });

  it('refuses a breaking change of a published module naming each conflict', () => {
    const fields = FIELDS.filter((f) => f.name !== 'lot').map((f) => (f.name === 'doseNumber' ? { ...f, maximum: 3 } : f));
    given(defined, published)
      .when(
        cmd('ChangeModuleDefinition', {
          definition: withFields([...fields, { name: 'site', label: 'Sitio', type: 'text', required: true }]),
        }),
      )
      .thenError('breaking-change', (e) =>
        assert.deepEqual(
          (e.details?.conflicts as { field: string; kind: string }[]).map((c) => `${c.field} ${c.kind}`),
          ['doseNumber narrowed', 'lot removed', 'site required-added'],
        ),
      );
  });

  it('adds a major version when the mapping covers every conflict, and refuses an uncovered or invalid one', () => {
    const site: ModuleField = { name: 'site', label: 'Sitio', type: 'choice', choices: ['deltoid', 'thigh'], required: true };
    const v2 = withFields([...FIELDS, site]);
    given(defined, published)
      .when(cmd('AddModuleMajorVersion', { definition: v2, upcast: [{ op: 'default', field: 'site', value: 'deltoid' }] }))
      .then({
        type: 'ModuleMajorVersionAdded',
        data: {
          definition: v2,
          version: { major: 2, minor: 0 },
          upcast: [{ op: 'default', field: 'site', value: 'deltoid' }],
          changes: ['site: a new required field'],
        },
      });
    given(defined, published)
      .when(cmd('AddModuleMajorVersion', { definition: v2, upcast: [] }))
      .thenError('uncovered-conflict', (e) => assert.equal((e.details?.conflicts as { field: string }[])[0]?.field, 'site'));
    given(defined, published)
      .when(
        cmd('AddModuleMajorVersion', {
          definition: v2,
          upcast: [
            { op: 'default', field: 'site', value: 'arm' },
            { op: 'drop', field: 'ghost' },
          ],
        }),
      )
      .thenError('validation-failed', (e) => assert.deepEqual(failedFields(e), ['upcast/0/value', 'upcast/1/field']));
    given(defined)
      .when(cmd('AddModuleMajorVersion', { definition: v2, upcast: [] }))
      .thenError('module-not-published');
  });

  it("refuses a major that moves the patient link: older records would lose (or lack) their patient's isolation and audit", () => {
    for (const patientLinked of [false, true]) {
      const before: ModuleEvent = {
        ...defined,
        data: { ...defined.data, definition: { ...V1, patientLinked: !patientLinked } },
      };
      given(before, published)
        .when(cmd('AddModuleMajorVersion', { definition: { ...V1, patientLinked }, upcast: [] }))
        .thenError('uncovered-conflict', (e) =>
          assert.deepEqual(e.details?.conflicts, [
            { field: 'patientLinked', kind: 'patient-link-changed', detail: 'whether records belong to a patient changed' },
          ]),
        );
    }
  });

  it('refuses a major that removes a state: records in it would answer a state the contract and the list filter no longer know', () => {
    const v2 = { ...V1, states: { ...V1.states!, states: [V1.states!.states[0]!], transitions: [] } };
    given(defined, published)
      .when(cmd('AddModuleMajorVersion', { definition: v2, upcast: [] }))
      .thenError('uncovered-conflict', (e) =>
        assert.deepEqual(
          (e.details?.conflicts as { field: string }[]).map((c) => c.field),
          ['states/verified'],
        ),
      );
  });

  it('publishes once (idempotent), retires, and a retired module changes no more', () => {
    given(defined).when(cmd('PublishModule', {})).then(published);
    given(defined, published).when(cmd('PublishModule', {})).then();
    given(defined, published).when(cmd('RetireModule', {})).then({ type: 'ModuleRetired', data: {} });
    const gone: ModuleEvent = { type: 'ModuleRetired', data: {} };
    given(defined, published, gone)
      .when(cmd('ChangeModuleDefinition', { definition: V1 }))
      .thenError('module-retired');
    given(defined, published, gone).when(cmd('PublishModule', {})).thenError('module-retired');
    given().when(cmd('PublishModule', {})).thenError('not-found');
  });
});
