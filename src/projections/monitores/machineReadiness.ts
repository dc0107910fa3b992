// The machine rules the floor queries need (PM plan, may-start verdict), handed to the read side from the write model
// so a query and the decider never judge differently.
export {
  calibrationDue,
  maintenanceDue,
  planFor,
  startVerdict,
  type MaintenanceDue,
  type StartReason,
  type StartVerdict,
} from '../../commands/monitores/startRules.js';
export { maintenancePolicyOf } from '../../commands/monitores/startRules.js';
