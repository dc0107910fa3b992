// A session's clinical values, the month's adequacy, the alerts, a patient's sessions and the session sheet are made of
// more than the sessions: the company's policy (thresholds, targets) and the patient (dry weight, names). A read at the
// minPosition of a change to either waits for that read model too, also while it is behind the sessions': never the
// values judged under the old policy or dry weight.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { registeredGroups } from '../../src/http/groups.js';
import { empresasGroup } from '../../src/http/routes/empresas/index.js';
import { pacientesGroup } from '../../src/http/routes/pacientes/index.js';
import { consistencyTokens } from '../../src/http/consistencyToken.js';
import type { CommandContext } from '../../src/commands/handleCommand.js';
import { changePolicy } from '../../src/commands/empresas/policyWrites.js';
import { POLICY_EVENT_TYPES } from '../../src/commands/empresas/policyEvents.js';
import { correctPatient, patientCommand } from '../../src/commands/pacientes/patientWrites.js';
import { empresasProjection } from '../../src/projections/empresas/empresasProjection.js';
import { pacientesProjection } from '../../src/projections/pacientes/pacientesProjection.js';
import type { SessionSheet } from '../../src/queries/dialisis/sessionSheet/sessionSheet.js';
import { expectStatus, startDialisisWorld, type Answer, type DialisisWorld, type Json } from './dialisisWorld.js';
import { flagCodes, postBlock, sessionSteps, type SessionSteps } from './dialisisSessionSteps.js';
import { held } from '../support/heldProjection.js';

describe('Dialisis reads at a write’s minPosition, while the policy or patients read model is behind the sessions’', () => {
  const policyModel = held(empresasProjection, POLICY_EVENT_TYPES);
  const patientModel = held(pacientesProjection, pacientesProjection.eventTypes as readonly string[]);
  let w: DialisisWorld;
  let s: SessionSteps;
  const sheets: SessionSheet[] = [];
  before(async () => {
    const groups = registeredGroups();
    groups[groups.indexOf(empresasGroup)] = { ...empresasGroup, projections: [policyModel.projection] };
    groups[groups.indexOf(pacientesGroup)] = { ...pacientesGroup, projections: [patientModel.projection] };
    w = await startDialisisWorld({ groups });
    s = sessionSteps(w);
    // The sheet's data as the route hands it to the renderer.
    const renderer = w.server.services.renders.sessionSheet;
    const render = renderer.render.bind(renderer);
    renderer.render = (tenantId, sessionId, revision, sheet, log) => (
      sheets.push(sheet),
      render(tenantId, sessionId, revision, sheet, log)
    );
  });
  after(async () => {
    policyModel.release();
    patientModel.release();
    await w?.close();
  });

  const at = (token: string | null): string => (token ? `minPosition=${encodeURIComponent(token)}` : '');
  const read = async (path: string, token: string | null = null): Promise<Answer> =>
    expectStatus(await w.call(w.a, 'GET', `${path}${path.includes('?') ? '&' : '?'}${at(token)}`), 200);
  /** The sheet of a session read at `token`: the data it was rendered from. */
  const sheetOf = async (sessionId: string, token: string | null = null): Promise<SessionSheet> => {
    const before = sheets.length;
    await read(`/dialisis/sesiones/${sessionId}/hoja`, token);
    assert.equal(sheets.length, before + 1, 'the sheet was handed to the renderer');
    return sheets.at(-1)!;
  };
  const sheetFlags = (sheet: SessionSheet): string[] => (sheet.derived as unknown as { flags: Json[] }).flags.map((f) => f.code as string);
  /** A command's context for company A's admin at the server clock (its HTTP answer would wait for the held read model). */
  const admin = (): CommandContext => ({
    tenantId: w.server.admin.companyId,
    actor: w.server.admin.userId,
    sessionId: null,
    correlationId: randomUUID(),
    ip: null,
    userAgent: null,
    at: w.server.clock.now().toISOString(),
  });
  /** Lets a started read wait a while: the held read model is shown still behind meanwhile. */
  const meanwhile = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 200));

  it('the session, the alerts, the adequacy and the sheet at a policy change’s minPosition judge under the new thresholds', async () => {
    const patientId = await s.prescribedPatient();
    const treated = await s.treatedSession(patientId, { hours: 4, post: postBlock({ postBunMgDl: 45 }) });
    const month = w.dateIn(0).slice(0, 7);
    const sessionPath = `/dialisis/sesiones/${treated.sessionId}`;
    const adequacyPath = `/dialisis/adecuacion?month=${month}`;
    const alertsPath = `/dialisis/alertas?from=${w.dateIn(-1)}&to=${w.dateIn(1)}`;
    const alertKinds = (answer: Answer): string[] =>
      (answer.body.items as Json[]).filter((a) => a.sessionId === treated.sessionId).map((a) => a.kind as string);
    // Read (and kept) under the policy of now: no UF rate alert, the default Kt/V minimum.
    assert.ok(!flagCodes(await read(sessionPath)).includes('uf-rate-above-maximum'));
    assert.ok(!alertKinds(await read(alertsPath)).includes('uf-rate-above-maximum'));
    assert.notEqual(((await read(adequacyPath)).body.targets as Json).ktvMinimum, 1.1);
    assert.ok(!sheetFlags(await sheetOf(treated.sessionId)).includes('uf-rate-above-maximum'));

    const policy = await read('/empresas/actual/politica');
    policyModel.hold();
    const settings = { adequacy: { ufRateThresholdMlKgH: 5, ktvMinimum: 1.1 } };
    const written = await changePolicy(
      w.server.services,
      admin(),
      { settings, reason: 'Stricter UF rate' },
      policy.body.revision as number,
    );
    const token = (await consistencyTokens(w.server.services)).seal(written.position!);
    const reading = Promise.all([
      read(sessionPath, token),
      read(alertsPath, token),
      read(adequacyPath, token),
      sheetOf(treated.sessionId, token),
    ]);
    await meanwhile();
    assert.equal((await read('/empresas/actual/politica')).body.revision, policy.body.revision, 'the policy read model is behind');
    policyModel.release();
    const [session, alerts, adequacy, sheet] = await reading;
    assert.ok(flagCodes(session).includes('uf-rate-above-maximum'), `the session waited: ${flagCodes(session).join()}`);
    assert.ok(alertKinds(alerts).includes('uf-rate-above-maximum'), `the alerts waited: ${alertKinds(alerts).join()}`);
    assert.equal((adequacy.body.targets as Json).ktvMinimum, 1.1, 'the adequacy waited');
    assert.ok(sheetFlags(sheet).includes('uf-rate-above-maximum'), `the sheet waited: ${sheetFlags(sheet).join()}`);
  });

  it('the session, the patient’s sessions, the prescription in force and the sheet at a patient change’s minPosition show the new dry weight and name', async () => {
    const patientId = await s.prescribedPatient({ givenNames: 'Eulalia' });
    const sessionId = await s.extraSession(patientId);
    await s.readyToStart(sessionId);
    const sessionPath = `/dialisis/sesiones/${sessionId}`;
    const listPath = `/dialisis/pacientes/${patientId}/sesiones`;
    const ufGoal = (answer: Answer): unknown => ((answer.body.clinical as Json).derived as Json).ufGoalL;
    const listed = (answer: Answer): unknown => ((answer.body.items as Json[])[0]!.patient as Json).givenNames;
    const date = (await read(sessionPath)).body.date as string;
    const inForcePath = `/dialisis/pacientes/${patientId}/prescripciones/vigente?date=${date}`;
    // Net pre-weight 66 - 0.5 kg, dry weight 62.5 kg: a UF goal of 3 L.
    assert.equal(ufGoal(await read(sessionPath)), 3);
    assert.equal(listed(await read(listPath)), 'Eulalia');
    assert.equal((await read(inForcePath)).body.dryWeightKg, 62.5);
    assert.match((await sheetOf(sessionId)).patient.fullName, /^Eulalia /);

    patientModel.hold();
    const { services } = w.server;
    const weighed = await patientCommand(
      services.events,
      admin(),
      patientId,
      'PrescribeDryWeight',
      { dryWeightKg: 60.5, effectiveDate: date },
      null,
    );
    const renamed = await correctPatient(services.events, admin(), patientId, { givenNames: 'Eulogia' }, weighed.revision);
    const token = (await consistencyTokens(services)).seal(renamed.position!);
    const reading = Promise.all([read(sessionPath, token), read(listPath, token), read(inForcePath, token), sheetOf(sessionId, token)]);
    await meanwhile();
    assert.equal((await read(`/pacientes/${patientId}`)).body.givenNames, 'Eulalia', 'the patients read model is behind');
    patientModel.release();
    const [session, list, inForce, sheet] = await reading;
    assert.equal(ufGoal(session), 5, 'the session waited: its UF goal counts from the new dry weight');
    assert.equal(listed(list), 'Eulogia', "the patient's sessions waited");
    assert.equal(inForce.body.dryWeightKg, 60.5, 'the prescription in force waited: it shows the dry weight in force');
    assert.match(sheet.patient.fullName, /^Eulogia /, 'the sheet waited');
    assert.equal(sheet.pre?.ufGoalL, 5, "the sheet's UF goal too");
  });
});
