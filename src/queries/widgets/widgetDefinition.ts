// What a dashboard widget is: its catalog entry (id, title, permissions, parameters, data shape) and how its data is
// read from the read models kept for it (counters and series maintained by projections, never a scan per request).
import Type, { type Static, type TObject, type TSchema } from 'typebox';
import type { Projection } from '../../projections/runner/projection.js';
import type { TenantScope } from '../tenantScope.js';
import { MODULE_CODE_PATTERN } from '../../commands/generador/shared/definitionTypes.js';

/**
 * Every parameter a widget may take, one vocabulary for all of them (each widget's `params` picks some): the data
 * route declares them once, a parameter a widget does not take is refused naming it.
 */
export const WIDGET_PARAMS = {
  locationId: Type.String({ format: 'uuid', description: 'One location (sede); all when absent' }),
  date: Type.String({ format: 'date', description: "Calendar day; the company's today when absent" }),
  month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: "Month YYYY-MM; the company's current month when absent" }),
  days: Type.Integer({ minimum: 1, maximum: 365, description: 'Horizon in days (what falls due or expires within it)' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, description: 'Items listed at most' }),
  module: Type.String({ pattern: MODULE_CODE_PATTERN, description: "A module of the company's own (Generador), by its code" }),
} as const;

export type WidgetParamName = keyof typeof WIDGET_PARAMS;

/** What a widget's `read` gets beside its parameters: the company scope and the company's calendar. */
export interface WidgetReadContext extends TenantScope {
  /** The company's calendar day now (its own time zone), YYYY-MM-DD. */
  today: string;
  now: Date;
  /** The reader's permissions: a widget listing patients may leave out what they may not read. */
  permissions: ReadonlySet<string>;
}

export interface WidgetDefinition<P extends TObject = TObject, D extends TSchema = TSchema> {
  /** Stable kebab-case id, e.g. 'patient-census'. */
  id: string;
  title: string;
  description: string;
  /** Permissions the reader needs, all of them, beside `widgets:read` (a clinical widget needs `pacientes:notes`). */
  permissions: readonly string[];
  /** Its parameters: a closed object of optional properties taken from WIDGET_PARAMS, defaults in `read`. */
  params: P;
  /** The shape of its data. */
  data: D;
  /** The projections it reads: its answer is as of the lowest of their checkpoints; live updates wait for them. */
  projections: readonly string[];
  /** Event categories whose events can change its data (a live dashboard recomputes it after one, debounced). */
  categories: readonly string[];
  /**
   * Every collection its read is made of, when its data depends on nothing else than them, the company's day, the
   * parameters and the reader's permissions (not the clock): the data is then kept per those while they are unchanged.
   */
  sources?: readonly { projection: string; collection: string }[];
  read(params: Static<P>, ctx: WidgetReadContext): Promise<Static<D>>;
  /**
   * What `permissions` cannot name because it depends on the parameters (a company module's read): throws a 403 naming
   * the permission lacking, or a 422 naming the parameter. Absent: the static permissions decide alone.
   */
  guard?(params: Record<string, unknown>, permissions: ReadonlySet<string>): void;
  /** Whether the catalog lists the widget to a holder of `permissions` at all, beside `permissions` (default: yes). */
  listedFor?(permissions: ReadonlySet<string>): boolean;
}

/**
 * What every widget's data carries for display, beside its own fields, so one page (and any client) draws every widget the
 * same way: `counts` as bars or a doughnut with labelled numbers, `series` as lines, `items` as a list of rows.
 */
export const DisplayCounts = Type.Array(
  Type.Object({ key: Type.String(), label: Type.String(), value: Type.Number() }, { additionalProperties: false }),
  { description: 'Labelled numbers (bars or a doughnut)' },
);
export const DisplaySeries = Type.Array(
  Type.Object(
    {
      key: Type.String(),
      label: Type.String(),
      points: Type.Array(Type.Object({ x: Type.String(), y: Type.Union([Type.Number(), Type.Null()]) }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
  { description: 'Lines over x (a day or a month)' },
);
export const DisplayItems = Type.Array(
  Type.Object(
    {
      id: Type.String(),
      label: Type.String({ description: 'What the row is about (a patient, a machine, a product...)' }),
      detail: Type.String({ description: 'Why it is listed, in words' }),
      date: Type.Optional(Type.String({ description: 'When it falls due, expired or happened (YYYY-MM-DD)' })),
      patientId: Type.Optional(Type.String({ description: 'The patient the row is about (the read is then in the access audit)' })),
      severity: Type.Optional(Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('critical')])),
    },
    { additionalProperties: false },
  ),
  { description: 'Rows to act on, most urgent first' },
);

export type DisplayCount = Static<typeof DisplayCounts>[number];
export type DisplayItem = Static<typeof DisplayItems>[number];

/** Rows sort critical first, then warning, then info (each list adds its own tie-breakers). */
export const SEVERITY_RANK = { critical: 0, warning: 1, info: 2 } as const;

/** One module's widgets and the projections that keep their read models (registered by the Widgets group). */
export interface WidgetSet {
  widgets: readonly WidgetDefinition[];
  projections: readonly Projection[];
}

/** Declares a widget with its types checked against its own schemas. */
export const defineWidget = <P extends TObject, D extends TSchema>(widget: WidgetDefinition<P, D>): WidgetDefinition => widget;

/** A widget's params schema: the named parameters, each optional. */
export const widgetParams = <K extends WidgetParamName>(...names: K[]) =>
  Type.Object(
    Object.fromEntries(names.map((name) => [name, Type.Optional(WIDGET_PARAMS[name])])) as {
      [N in K]: ReturnType<typeof Type.Optional<(typeof WIDGET_PARAMS)[N]>>;
    },
    { additionalProperties: false },
  );
