// Where the Dialisis commands get their facts (issue 22 item 3): each command's loader bound to the services, handed to
// its orchestration as `{ ..., loadFacts }`. The commands declare the facts' types (src/commands/dialisis/**/*Facts.ts)
// and never import this side; the group's routes and periodic tasks (src/http/routes/dialisis) wire it.
import type { StartDeps } from '../../commands/dialisis/session/sessionStartWrites.js';
import type { SessionDeps, SignDeps } from '../../commands/dialisis/session/sessionWrites.js';
import type { MachineChangeDeps } from '../../commands/dialisis/session/machineChangeWrites.js';
import type { ReconciliationDeps } from '../../commands/dialisis/session/equipmentClaimsReconciliation.js';
import { sessionClaimsReconciliationTask } from '../../commands/dialisis/session/equipmentClaimsReconciliation.js';
import type { ScheduleDeps } from '../../commands/dialisis/schedule/seatWrites.js';
import { orphanedSeatsTask } from '../../commands/dialisis/schedule/orphanedSeatWrites.js';
import type { PrescriptionDeps } from '../../commands/dialisis/prescription/prescriptionWrites.js';
import type { AppServices } from '../../services.js';
import { startFactLoader } from './startFactLoader.js';
import { machineChangeFactLoader, sessionCommandFactLoader, signFactLoader } from './sessionFactLoaders.js';
import { claimFactLoader } from './claimFactLoader.js';
import { scheduleFactLoader } from './scheduleFactLoader.js';
import { prescriptionFactLoader } from './prescriptionFactLoader.js';

export const startDeps = (services: AppServices): StartDeps => ({ services, loadFacts: startFactLoader(services) });
export const sessionDeps = (services: AppServices): SessionDeps => ({ services, loadFacts: sessionCommandFactLoader(services) });
export const signDeps = (services: AppServices): SignDeps => ({ services, loadFacts: signFactLoader(services) });
export const machineChangeDeps = (services: AppServices): MachineChangeDeps => ({ services, loadFacts: machineChangeFactLoader(services) });
export const reconciliationDeps = (services: AppServices): ReconciliationDeps => ({ services, facts: claimFactLoader(services) });

export const scheduleDeps = (services: AppServices): ScheduleDeps => ({
  events: services.events,
  now: () => services.now(),
  facts: scheduleFactLoader(services),
});

export const prescriptionDeps = (services: AppServices): PrescriptionDeps => ({
  events: services.events,
  now: () => services.now(),
  loadFacts: prescriptionFactLoader(services),
});

/** The group's periodic reconciliations, each with its facts' loader. */
export const dialisisPeriodicTasks = [sessionClaimsReconciliationTask(claimFactLoader), orphanedSeatsTask(scheduleFactLoader)];
