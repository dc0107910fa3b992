// The machine the decider tests start from: its registration and the start policy they judge with.
import type { MachineEvent, MachineFields, StartPolicy } from './machineEvents.js';

export const machineFields: MachineFields = {
  code: 'M-01',
  serial: 'SN-1',
  brand: 'Fresenius',
  model: '4008S',
  locationId: 'l1',
  stationId: 's1',
  installDate: '2025-01-01',
  isolation: 'none',
};

/** Machine m1 registered, with the fields given over the defaults. */
export const machineRegistered = (overrides: Partial<MachineFields> = {}): MachineEvent => ({
  type: 'MachineRegistered',
  data: { machineId: 'm1', ...machineFields, ...overrides },
});

/** The start policy (maintenance and isolation) of the tests, with what is given over it. */
export const startPolicy = (overrides: Partial<StartPolicy> = {}): StartPolicy => ({
  preventiveEveryHours: 1500,
  preventiveEveryDays: 180,
  overdueMode: 'block',
  revision: 3,
  dedicatedMachineFor: ['HBV'],
  ...overrides,
});
