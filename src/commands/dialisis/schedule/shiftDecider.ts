// Every rule about a shift: its windows, its seats and its location. Pure: the location and the policy come in.
import { DomainError, notFound, rule, type Decider } from '../../decider.js';
import { fieldChanges } from '../../shared/fieldChanges.js';
import { FieldChecks } from '../../shared/fieldChecks.js';
import { normalWeekdays, requiredText } from './scheduleRules.js';
import {
  CORRECTABLE_SHIFT_FIELDS,
  type LocationFacts,
  type ShiftCommand,
  type ShiftEvent,
  type ShiftFields,
  type ShiftPatch,
  SHIFT_CATEGORY,
} from './shiftEvents.js';

export interface ShiftState {
  exists: boolean;
  fields: ShiftFields | null;
  retired: boolean;
}

export const initialShiftState: ShiftState = { exists: false, fields: null, retired: false };

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function applyShiftPatch(current: ShiftFields, patch: ShiftPatch): ShiftFields {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as ShiftFields;
}

function checkShift(f: ShiftFields, location: LocationFacts | undefined): void {
  const checks = new FieldChecks();
  checks.check(f.name.trim().length > 0, 'name', 'must not be blank');
  checks.check(HHMM.test(f.dialysisStart), 'dialysisStart', 'must be a time HH:MM');
  checks.check(HHMM.test(f.dialysisEnd), 'dialysisEnd', 'must be a time HH:MM');
  checks.check(minutesOf(f.dialysisEnd) > minutesOf(f.dialysisStart), 'dialysisEnd', 'must be after dialysisStart');
  checks.check(Number.isInteger(f.capacity) && f.capacity >= 1, 'capacity', 'must be a whole number of seats, at least 1');
  checks.check(Number.isInteger(f.reservedCapacity) && f.reservedCapacity >= 0, 'reservedCapacity', 'must be a whole number, 0 or more');
  checks.check(f.weekdays === undefined || f.weekdays.length > 0, 'weekdays', 'must name at least one weekday (omit it for every day)');
  if (location) checks.check(location.exists, 'locationId', 'no such location in this company');
  checks.throwIfAny();
  if (location && !location.open) throw rule('location-closed', 'the location is closed');
}

function define(command: Extract<ShiftCommand, { type: 'DefineShift' }>, state: ShiftState): ShiftEvent[] {
  if (state.exists) throw new DomainError('already-exists', 'this shift already exists', 409);
  const { location, policy, capacity, weekdays, ...rest } = command.data;
  const fields: ShiftFields = {
    ...rest,
    name: rest.name.trim(),
    ...(weekdays ? { weekdays: normalWeekdays(weekdays) } : {}),
    capacity: capacity ?? policy.defaultCapacity,
  };
  checkShift(fields, location);
  return [{ type: 'ShiftDefined', data: { shiftId: command.aggregateId, ...fields, policyRevision: policy.revision } }];
}

function correct(command: Extract<ShiftCommand, { type: 'CorrectShift' }>, state: ShiftState): ShiftEvent[] {
  const current = existing(state);
  const { location, ...patch } = command.data;
  const asked: ShiftPatch = patch.weekdays ? { ...patch, weekdays: normalWeekdays(patch.weekdays) } : patch;
  const diff = fieldChanges(current, asked, CORRECTABLE_SHIFT_FIELDS);
  if (!diff) return [];
  checkShift(applyShiftPatch(current, diff.changes), 'locationId' in diff.changes ? location : undefined);
  return [{ type: 'ShiftCorrected', data: { changes: diff.changes, previous: diff.previous } }];
}

function existing(state: ShiftState): ShiftFields {
  if (!state.exists || !state.fields) throw notFound('shift');
  if (state.retired) throw rule('shift-retired', 'the shift is retired');
  return state.fields;
}

export function evolveShift(state: ShiftState, event: ShiftEvent): ShiftState {
  switch (event.type) {
    case 'ShiftDefined': {
      const { shiftId: _id, policyRevision: _p, ...fields } = event.data;
      return { exists: true, fields, retired: false };
    }
    case 'ShiftCorrected':
      return state.fields ? { ...state, fields: applyShiftPatch(state.fields, event.data.changes) } : state;
    case 'ShiftRetired':
      return { ...state, retired: true };
  }
}

function decideShift(command: ShiftCommand, state: ShiftState): ShiftEvent[] {
  switch (command.type) {
    case 'DefineShift':
      return define(command, state);
    case 'CorrectShift':
      return correct(command, state);
    case 'RetireShift':
      existing(state);
      return [{ type: 'ShiftRetired', data: { reason: requiredText(command.data.reason, 'reason') } }];
  }
}

export const shiftDecider: Decider<ShiftCommand, ShiftEvent, ShiftState> = {
  category: SHIFT_CATEGORY,
  initialState: initialShiftState,
  evolve: evolveShift,
  decide: decideShift,
};
