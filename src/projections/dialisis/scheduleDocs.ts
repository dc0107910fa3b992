// Read-model documents of the schedule: shifts, standing plans and the seats of each shift-day. Pure folds.
import type { ShiftEvent, ShiftFields, ShiftPatch } from '../../commands/dialisis/schedule/shiftEvents.js';
import type { StandingPlan, StandingPlanEvent } from '../../commands/dialisis/schedule/standingPlanEvents.js';
import type { ShiftDayEvent } from '../../commands/dialisis/schedule/shiftDayEvents.js';
import type { ScheduledData, SessionKind } from '../../commands/dialisis/session/sessionEvents.js';
import type { ProjectedDoc } from '../runner/projection.js';
import { aggregateIdOfStream, tenantOfStream, type RecordedEvent } from '../../stores/eventStore.js';

type Stamp = { createdAt: string; createdBy: string; updatedAt: string; updatedBy: string };

export type ShiftDoc = ProjectedDoc &
  ShiftFields &
  Stamp & { status: 'active' | 'retired'; retireReason: string | null; revision: number; sortName: string };

export type PlanDoc = ProjectedDoc & StandingPlan & Stamp & { status: 'active' | 'ended'; endReason: string | null; revision: number };

export type SeatEntry = { sessionId: string; patientId: string; kind: SessionKind; claimedAt: string; scheduled: boolean };
export type ShiftDayDoc = ProjectedDoc & { shiftId: string; date: string; seats: SeatEntry[]; unscheduled: number };

const sortNameOf = (name: string): string => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

const stamp = (recorded: RecordedEvent, kept?: Stamp): Stamp => ({
  createdAt: kept?.createdAt ?? recorded.metadata.occurredAt,
  createdBy: kept?.createdBy ?? recorded.metadata.actor,
  updatedAt: recorded.metadata.occurredAt,
  updatedBy: recorded.metadata.actor,
});

function patched(doc: ShiftDoc, patch: ShiftPatch): ShiftDoc {
  const next: Record<string, unknown> = { ...doc };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  return next as ShiftDoc;
}

export function foldShift(doc: ShiftDoc | null, recorded: RecordedEvent): ShiftDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as ShiftEvent;
  const common = { revision: recorded.revision, _position: Number(recorded.position) };
  if (event.type === 'ShiftDefined') {
    if (doc) return doc;
    const { shiftId, policyRevision: _p, ...fields } = event.data;
    const base = { tenantId: tenantOfStream(recorded.streamName), id: shiftId, ...fields, status: 'active' as const, retireReason: null };
    return { ...base, ...stamp(recorded), ...common, sortName: sortNameOf(fields.name) };
  }
  if (!doc) return null;
  if (event.type === 'ShiftRetired')
    return { ...doc, ...stamp(recorded, doc), ...common, status: 'retired', retireReason: event.data.reason };
  const next = patched(doc, event.data.changes);
  return { ...next, ...stamp(recorded, doc), ...common, sortName: sortNameOf(next.name) };
}

export function foldPlan(doc: PlanDoc | null, recorded: RecordedEvent): PlanDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as StandingPlanEvent;
  const common = { revision: recorded.revision, _position: Number(recorded.position) };
  if (event.type === 'StandingPlanCreated') {
    if (doc) return doc;
    const base = { tenantId: tenantOfStream(recorded.streamName), id: event.data.planId, ...event.data };
    return { ...base, status: 'active', endReason: null, ...stamp(recorded), ...common };
  }
  if (!doc) return null;
  const { effectiveTo, reason } = event.data;
  return { ...doc, effectiveTo, status: 'ended', endReason: reason, ...stamp(recorded, doc), ...common };
}

const withSeats = (doc: ShiftDayDoc, seats: SeatEntry[], recorded: RecordedEvent): ShiftDayDoc => ({
  ...doc,
  seats,
  unscheduled: seats.filter((s) => !s.scheduled).length,
  _position: Number(recorded.position),
});

export function foldShiftDay(doc: ShiftDayDoc | null, recorded: RecordedEvent): ShiftDayDoc | null {
  const event = { type: recorded.type, data: recorded.data } as unknown as ShiftDayEvent;
  if (event.type === 'SeatClaimed') {
    const id = aggregateIdOfStream(recorded.streamName);
    const base: ShiftDayDoc = doc ?? {
      tenantId: tenantOfStream(recorded.streamName),
      id,
      shiftId: id.slice(0, id.lastIndexOf('_')),
      date: id.slice(id.lastIndexOf('_') + 1),
      seats: [],
      unscheduled: 0,
      _position: 0,
    };
    const { sessionId, patientId, kind, claimedAt } = event.data;
    const seats = [...base.seats.filter((s) => s.sessionId !== sessionId), { sessionId, patientId, kind, claimedAt, scheduled: false }];
    return withSeats(base, seats, recorded);
  }
  if (!doc) return null;
  return withSeats(
    doc,
    doc.seats.filter((s) => s.sessionId !== event.data.sessionId),
    recorded,
  );
}

/** A session's scheduling confirms its seat (a seat never confirmed is what the reconciliation looks for). */
export function confirmSeat(doc: ShiftDayDoc | null, recorded: RecordedEvent): ShiftDayDoc | null {
  const { sessionId } = recorded.data as ScheduledData;
  if (!doc || !doc.seats.some((s) => s.sessionId === sessionId && !s.scheduled)) return doc;
  const seats = doc.seats.map((s) => (s.sessionId === sessionId ? { ...s, scheduled: true } : s));
  return withSeats(doc, seats, recorded);
}

export function shiftView(doc: ShiftDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, sortName: _s, ...view } = doc;
  return view;
}

export function planView(doc: PlanDoc): Record<string, unknown> {
  const { tenantId: _t, _position, _changedAt: _changed, planId: _p, ...view } = doc;
  return view;
}
