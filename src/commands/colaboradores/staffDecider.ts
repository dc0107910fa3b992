// Every rule about a staff record in one place. Pure: time, ids and the job position's facts come in with the command.
import { fieldChanges } from '../shared/fieldChanges.js';
import type { Decider } from '../decider.js';
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import type { HireStaffData, StaffCommand, StaffEvent } from './staffEvents.js';
import { STAFF_CATEGORY } from './staffEvents.js';
import { checkDate, checkDose, checkLicence, checkPersonal, checkPosition, checkSerology } from './staffRules.js';
import { applyStaffPatch, evolveStaff, initialStaffState, type StaffState } from './staffState.js';
import { CORRECTABLE_STAFF_FIELDS, type Licence, type StaffPatch, type StaffPersonal } from './staffTypes.js';

type Existing = StaffState & { personal: StaffPersonal };

function existing(state: StaffState): Existing {
  if (!state.exists || !state.personal) throw notFound('staff member');
  return state as Existing;
}

/** A terminated record takes corrections only: nothing new happens to someone who no longer works here. */
function working(state: StaffState): Existing {
  const s = existing(state);
  if (s.status === 'terminated') throw rule('staff-terminated', 'this staff member was terminated; the record only takes corrections');
  return s;
}

const trimmedLicence = (l: Licence): Licence => ({
  ...l,
  body: l.body.trim(),
  number: l.number.trim(),
  ...(l.specialtyRegistry !== undefined ? { specialtyRegistry: l.specialtyRegistry.trim() } : {}),
});

function decideHire(data: HireStaffData, state: StaffState, staffId: string, at: string): StaffEvent[] {
  if (state.exists) throw new DomainError('already-exists', 'this staff member is already registered', 409);
  const { position, licence, serology = [], hbvVaccination = [], userId, ...hired } = data;
  const checks = new FieldChecks();
  checkPersonal(checks, hired);
  checkPosition(checks, position, licence);
  if (licence) checkLicence(checks, 'licence/', licence);
  serology.forEach((s, i) => checkSerology(checks, `serology/${i}/`, s, at));
  hbvVaccination.forEach((d, i) => checkDose(checks, `hbvVaccination/${i}/`, d, at));
  const doses = hbvVaccination.map((d) => d.dose);
  doses.forEach((d, i) => checks.check(doses.indexOf(d) === i, `hbvVaccination/${i}/dose`, 'is listed twice'));
  checks.throwIfAny();
  const events: StaffEvent[] = [
    {
      type: 'StaffHired',
      data: {
        staffId,
        ...hired,
        givenNames: hired.givenNames.trim(),
        familyNames: hired.familyNames.trim(),
        status: 'active',
        serology,
        hbvVaccination,
      },
    },
  ];
  if (licence) events.push({ type: 'StaffLicenseRegistered', data: trimmedLicence(licence) });
  if (userId) events.push({ type: 'StaffLinkedToUser', data: { userId, previousUserId: null } });
  return events;
}

function decideCorrection(patch: StaffPatch, state: StaffState): StaffEvent[] {
  const current = existing(state).personal;
  const diff = fieldChanges(current, patch, CORRECTABLE_STAFF_FIELDS);
  if (!diff) return [];
  const { changes, previous } = diff;
  const next = applyStaffPatch(current, changes);
  const checks = new FieldChecks();
  checkPersonal(checks, next);
  if (state.terminationDate !== null)
    checks.check(next.hireDate <= state.terminationDate, 'hireDate', 'must not be after the termination date');
  checks.throwIfAny();
  return [{ type: 'StaffDataCorrected', data: { changes, previous } }];
}

function decideLicence(licence: Licence, state: StaffState): StaffEvent[] {
  const s = working(state);
  const checks = new FieldChecks();
  checkLicence(checks, '', licence);
  const next = trimmedLicence(licence);
  if (s.licence) checks.check(next.expiresOn >= s.licence.expiresOn, 'expiresOn', 'must not be before the current licence expiry');
  checks.throwIfAny();
  if (!s.licence) return [{ type: 'StaffLicenseRegistered', data: next }];
  if (JSON.stringify(next) === JSON.stringify(s.licence)) return [];
  return [{ type: 'StaffLicenseRenewed', data: { ...next, previous: s.licence } }];
}

export function decideStaff(command: StaffCommand, state: StaffState): StaffEvent[] {
  const at = command.at;
  switch (command.type) {
    case 'HireStaff':
      return decideHire(command.data, state, command.aggregateId, at);
    case 'CorrectStaffData':
      return decideCorrection(command.data, state);
    case 'RegisterStaffLicence':
      return decideLicence(command.data, state);
    case 'RecordStaffSerology': {
      working(state);
      const checks = new FieldChecks();
      checkSerology(checks, '', command.data, at);
      checks.throwIfAny();
      return [{ type: 'StaffSerologyRecorded', data: command.data }];
    }
    case 'RecordStaffVaccination': {
      const s = working(state);
      const checks = new FieldChecks();
      checkDose(checks, '', command.data, at);
      checks.throwIfAny();
      if (s.doses.includes(command.data.dose))
        throw rule('dose-already-recorded', `HBV vaccine dose ${command.data.dose} is already recorded`);
      return [{ type: 'StaffVaccinationRecorded', data: command.data }];
    }
    case 'ChangeStaffPosition': {
      const s = working(state);
      const { positionId, position } = command.data;
      if (positionId === s.positionId) return [];
      const effectiveDate = command.data.effectiveDate ?? at.slice(0, 10);
      const checks = new FieldChecks();
      checkPosition(checks, position, s.licence);
      checkDate(checks, 'effectiveDate', effectiveDate, at, true);
      checks.throwIfAny();
      return [{ type: 'StaffPositionChanged', data: { positionId, previousPositionId: s.positionId!, effectiveDate } }];
    }
    case 'LinkStaffToUser': {
      const s = working(state);
      if (s.userId === command.data.userId) return [];
      return [{ type: 'StaffLinkedToUser', data: { userId: command.data.userId, previousUserId: s.userId } }];
    }
    case 'TerminateStaff': {
      const s = working(state);
      const { terminationDate, reason } = command.data;
      const checks = new FieldChecks().check(reason.trim().length > 0, 'reason', 'must not be blank');
      checkDate(checks, 'terminationDate', terminationDate, at);
      checks.check(terminationDate >= s.personal.hireDate, 'terminationDate', 'must not be before the hire date');
      checks.throwIfAny();
      return [{ type: 'StaffTerminated', data: { terminationDate, reason: reason.trim() } }];
    }
    case 'RehireStaff': {
      const s = existing(state);
      if (s.status !== 'terminated') throw rule('staff-not-terminated', 'only a terminated staff member can be rehired');
      const { hireDate, positionId, position, reason } = command.data;
      const checks = new FieldChecks().check(reason.trim().length > 0, 'reason', 'must not be blank');
      checkDate(checks, 'hireDate', hireDate, at, true);
      checks.check(hireDate >= s.terminationDate!, 'hireDate', 'must not be before the termination date');
      checkPosition(checks, position, s.licence);
      checks.throwIfAny();
      const previous = { previousHireDate: s.personal.hireDate, previousTerminationDate: s.terminationDate! };
      return [{ type: 'StaffRehired', data: { hireDate, ...previous, positionId, reason: reason.trim() } }];
    }
  }
}

export const staffDecider: Decider<StaffCommand, StaffEvent, StaffState> = {
  category: STAFF_CATEGORY,
  initialState: initialStaffState,
  evolve: evolveStaff,
  decide: decideStaff,
};
