// The data route's rules on the floor widgets: who sees which widget, the permission a refusal names, parameters refused by name.
import assert from 'node:assert/strict';
import { ProblemError } from '../../../problems.js';
import { mayRead, WIDGETS } from '../../../queries/widgets/widgetCatalog.js';
import { checkWidgetParams, guardWidgetParams, readableWidget } from './widgetDataRoutes.js';
import { builtInLayout } from './dashboardPolicy.js';

const RECEPTIONIST = new Set(['widgets:read', 'pacientes:read', 'pacientes:write', 'dialisis:read']);
const NURSE = new Set([...RECEPTIONIST, 'pacientes:notes']);
const visible = (permissions: ReadonlySet<string>): string[] => WIDGETS.filter((w) => mayRead(w, permissions)).map((w) => w.id);
const problemOf = (fn: () => unknown): ProblemError => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProblemError);
    return err;
  }
  assert.fail('expected a problem');
};

describe('widget data route rules (floor widgets)', () => {
  it('a receptionist sees the census and the board, not the clinical sessions awaiting; a nurse sees all three', () => {
    assert.ok(visible(RECEPTIONIST).includes('patient-census') && visible(RECEPTIONIST).includes('today-board'));
    assert.ok(!visible(RECEPTIONIST).includes('sessions-awaiting'));
    assert.ok(['patient-census', 'today-board', 'sessions-awaiting'].every((id) => visible(NURSE).includes(id)));
    assert.deepEqual(visible(new Set(['widgets:read', 'dialisis:read'])).includes('patient-census'), false);
  });

  it('refuses a widget naming the first permission missing, and an unknown one as 404', () => {
    const refused = problemOf(() => readableWidget('sessions-awaiting', RECEPTIONIST));
    assert.deepEqual([refused.status, refused.extensions.permission], [403, 'pacientes:notes']);
    assert.equal(problemOf(() => readableWidget('no-such-widget', NURSE)).status, 404);
    assert.equal(readableWidget('today-board', RECEPTIONIST).id, 'today-board');
  });

  it('refuses every parameter the widget does not take, naming each; absent ones are not refused', () => {
    const board = readableWidget('today-board', NURSE);
    assert.doesNotThrow(() => checkWidgetParams(board, { date: '2025-03-03', locationId: undefined }));
    const refused = problemOf(() => checkWidgetParams(board, { limit: 5, month: '2025-03', days: undefined }));
    assert.deepEqual(
      refused.errors?.map((e) => e.pointer),
      ['/query/limit', '/query/month'],
    );
  });

  it("guards a module widget by its module's read (module-disabled when the company switched the Generador off)", () => {
    const widget = readableWidget('module-records', new Set(['widgets:read', 'mod.vac:read']));
    const granted = new Set(['widgets:read', 'mod.vac:read']);
    assert.doesNotThrow(() => guardWidgetParams(widget, { module: 'vac' }, granted));
    assert.doesNotThrow(() => guardWidgetParams(widget, { module: 'agua' }, new Set(['mod.*'])));
    const refused = problemOf(() => guardWidgetParams(widget, { module: 'agua' }, granted));
    assert.deepEqual([refused.status, refused.extensions.permission], [403, 'mod.agua:read']);
    assert.equal(problemOf(() => guardWidgetParams(widget, {}, granted)).errors?.[0]?.pointer, '/query/module');
    const off = problemOf(() => guardWidgetParams(widget, { module: 'vac' }, new Set(['widgets:read']), granted));
    assert.equal(off.code, 'module-disabled');
    assert.ok(!visible(new Set(['widgets:read'])).includes('module-records'));
    assert.ok(!builtInLayout().panels.some((p) => p.widgetId === 'module-records'), 'never in the built-in dashboard');
  });
});
