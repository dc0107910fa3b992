// Field rules of a machine's own data: checked on registration and on the machine a correction would leave.
import { FieldChecks, isRealDate, notFutureDate } from '../shared/fieldChecks.js';
import { servedCategories, type MachineFields, type MachineServes } from './machineEvents.js';

export function checkMachineFields(f: MachineFields, at: string): void {
  const checks = new FieldChecks();
  for (const field of ['code', 'serial', 'brand', 'model'] as const) checks.check(f[field].trim().length > 0, field, 'must not be blank');
  checks.check(isRealDate(f.installDate), 'installDate', 'is not a real date');
  checks.check(notFutureDate(f.installDate, at), 'installDate', 'is in the future');
  if (f.warrantyEnd !== undefined) {
    checks.check(isRealDate(f.warrantyEnd), 'warrantyEnd', 'is not a real date');
    checks.check(f.warrantyEnd >= f.installDate, 'warrantyEnd', 'is before the install date');
  }
  checks.throwIfAny();
}

/** A set of isolation categories kept in one order, so the same set is always the same value. */
export const normalIsolation = (isolation: MachineServes): MachineServes =>
  Array.isArray(isolation) ? servedCategories(isolation) : isolation;

export const trimmedMachine = (f: MachineFields): MachineFields => ({
  ...f,
  isolation: normalIsolation(f.isolation),
  code: f.code.trim(),
  serial: f.serial.trim(),
  brand: f.brand.trim(),
  model: f.model.trim(),
});

/** A required free text of a command: trimmed, never blank (422 naming it). */
export function textOf(value: string, field: string): string {
  new FieldChecks().check(value.trim().length > 0, field, 'must not be blank').throwIfAny();
  return value.trim();
}

/** An optional free text: trimmed, dropped when blank. */
export const optionalText = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);
