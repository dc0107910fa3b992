// The facts the schedule's commands take from outside their streams (issue 22 item 3), declared here and loaded by
// src/facts/dialisis/scheduleFactLoader.ts: each says whether it is folded from a stream (strong) or read from a model
// (eventual). What the deciders read from other aggregates' own streams stays in scheduleFactWrites.ts.
import type { PolicyFacts } from '../../empresas/shared/policySettings.js';

/** A standing plan in effect on a date, as the schedule model holds it. */
export interface PlanInEffect {
  patientId: string;
  shiftId: string;
  planId: string;
}

/** A shift day with seats whose session may never have been scheduled, as the schedule model holds it. */
export interface SeatsToCheck {
  id: string;
  seats: { sessionId: string; scheduled: boolean }[];
}

export interface ScheduleFacts {
  /** Read from the companies model (eventual): the company's calendar day at `at`, in its time zone. */
  today: (tenantId: string, at: Date) => Promise<string>;
  /** Folded from the company's policy stream (strong): a new shift's default capacity. */
  policy: (tenantId: string) => Promise<PolicyFacts>;
  /**
   * Read from the schedule model (eventual), once it holds every plan written so far (503 read-model-behind after the
   * wait): the plans in effect on a date, of one location or all.
   */
  plansInEffect: (tenantId: string, date: string, locationId?: string) => Promise<PlanInEffect[]>;
  /** Read from the companies model (eventual): every company's id. */
  companyIds: () => Promise<string[]>;
  /** Read from the schedule model (eventual): a page of shift days with unscheduled seats (candidates; the session stream decides). */
  unscheduledSeats: (
    tenantId: string,
    after: string | null,
    limit: number,
  ) => Promise<{ items: SeatsToCheck[]; nextCursor: string | null }>;
}
