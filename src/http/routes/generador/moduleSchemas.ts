// JSON Schemas of /generador/modulos: a module's definition as clients send it (with a new major's mapping of older
// records) and the module view, declared once with TypeBox; the rules a schema cannot say live in definitionRules.ts.
import Type from 'typebox';
import {
  FIELD_NAME_PATTERN,
  FIELD_TYPES,
  GENERATOR_LIMITS as L,
  MODULE_CODE_PATTERN,
  MODULE_STATUSES,
  REFERENCE_TARGETS,
} from '../../../commands/generador/shared/definitionTypes.js';
import { closed, ReasonSchema } from '../shared/fieldSchemas.js';

const Code = Type.String({ pattern: MODULE_CODE_PATTERN, description: "The module's id, path segment and permission prefix" });
const FieldName = Type.String({ pattern: FIELD_NAME_PATTERN });
const Label = Type.String({ maxLength: L.labelMaxLength });
const Value = Type.Union([
  Type.String({ maxLength: L.textMaxLength }),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.String({ maxLength: L.choiceMaxLength }), { maxItems: L.choices }),
]);
const Count = Type.Integer({ minimum: 0 });

export const CodeParams = closed({ code: Code });

const Field = closed(
  {
    name: FieldName,
    label: Label,
    description: Type.Optional(Type.String({ maxLength: L.descriptionMaxLength })),
    type: Type.Enum(FIELD_TYPES),
    required: Type.Optional(Type.Boolean()),
    minLength: Type.Optional(Count),
    maxLength: Type.Optional(Count),
    pattern: Type.Optional(Type.String({ maxLength: L.patternMaxLength, description: 'ECMA-262, no nested quantifiers' })),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    unit: Type.Optional(Type.String({ maxLength: L.unitMaxLength })),
    choices: Type.Optional(Type.Array(Type.String({ maxLength: L.choiceMaxLength }), { maxItems: L.choices })),
    minItems: Type.Optional(Count),
    maxItems: Type.Optional(Count),
    refersTo: Type.Optional(Type.Enum(REFERENCE_TARGETS)),
    module: Type.Optional(Code),
    default: Type.Optional(Value),
  },
  { title: 'ModuleField' },
);

const StateName = Type.String({ maxLength: 40 });
const States = closed(
  {
    initial: StateName,
    states: Type.Array(closed({ name: StateName, label: Label }), { maxItems: L.states }),
    transitions: Type.Array(
      closed({
        name: StateName,
        label: Label,
        from: Type.Array(StateName, { maxItems: L.states }),
        to: StateName,
        signs: Type.Optional(Type.Boolean({ description: 'A signature: mod.<code>:sign and a step-up code' })),
      }),
      { maxItems: L.transitions },
    ),
  },
  { title: 'ModuleStates' },
);

const Names = Type.Array(FieldName, { maxItems: L.fields });
const definition = {
  name: Type.String({ maxLength: L.nameMaxLength }),
  description: Type.Optional(Type.String({ maxLength: L.descriptionMaxLength })),
  patientLinked: Type.Boolean({ description: "Records belong to a patient and join the patient's isolation and audit" }),
  fields: Type.Array(Field, { maxItems: L.fields }),
  listFields: Type.Optional(Names),
  filterFields: Names,
  sortFields: Names,
  states: Type.Optional(States),
};

const op = <O extends string>(name: O) => Type.Literal(name);
const UpcastStep = Type.Union(
  [
    closed({ op: op('rename'), from: FieldName, to: FieldName }),
    closed({ op: op('default'), field: FieldName, value: Value }),
    closed({ op: op('convert'), field: FieldName, to: Type.Enum(['text', 'number', 'integer'] as const) }),
    closed({ op: op('scale'), field: FieldName, factor: Type.Number() }),
    closed({ op: op('mapChoices'), field: FieldName, map: Type.Record(Type.String(), Type.String({ maxLength: L.choiceMaxLength })) }),
    closed({ op: op('drop'), field: FieldName }),
  ],
  { title: 'UpcastStep' },
);
const Upcast = Type.Array(UpcastStep, { maxItems: L.upcastSteps });

export const DefineModuleBody = closed({ code: Code, ...definition, reason: Type.Optional(ReasonSchema) });
export const ChangeDefinitionBody = closed({ ...definition, reason: ReasonSchema });
export const MajorVersionBody = closed({
  ...definition,
  upcast: Type.Array(UpcastStep, {
    maxItems: L.upcastSteps,
    description: 'How a record of the previous major reads in this one, in order; must cover every breaking change',
  }),
  reason: ReasonSchema,
});
export const PublishBody = closed({ reason: Type.Optional(ReasonSchema) });

const Version = closed({ major: Count, minor: Count });
const Permission = Type.String();
export const ModuleView = closed(
  {
    id: Type.String(),
    code: Type.String(),
    status: Type.Enum(MODULE_STATUSES),
    ...definition,
    version: Version,
    majors: Type.Array(closed({ major: Count, minor: Count, upcast: Upcast })),
    permissions: closed({ read: Permission, write: Permission, sign: Permission }),
    recordsPath: Type.String(),
    revision: Count,
    createdAt: Type.String({ format: 'date-time' }),
    createdBy: Type.String(),
    updatedAt: Type.String({ format: 'date-time' }),
    updatedBy: Type.String(),
  },
  { title: 'Module' },
);
