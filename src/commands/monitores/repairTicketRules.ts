// The corrective ticket a fault opens: open -> assigned -> in-progress (<-> waiting-for-part) -> completed -> closed.
// Closing needs return-to-service tests; a failed one leaves the machine out of service.
import { DomainError, notFound, rule } from '../decider.js';
import { FieldChecks } from '../shared/fieldChecks.js';
import type { MachineCommand, MachineEvent, TicketStatus } from './machineEvents.js';
import type { MachineState, RepairTicket } from './shared/machineState.js';
import { optionalText, textOf } from './machineChecks.js';

type TicketCommand = Extract<MachineCommand, { type: 'ReportFault' | 'AdvanceRepairTicket' | 'CompleteRepair' | 'CloseRepairTicket' }>;

/** Which ticket states each step may leave from. */
const STEPS_FROM: Record<'assigned' | 'in-progress' | 'waiting-for-part', TicketStatus[]> = {
  assigned: ['open', 'assigned'],
  'in-progress': ['assigned', 'waiting-for-part'],
  'waiting-for-part': ['in-progress'],
};

function ticketOf(state: MachineState, ticketId: string): RepairTicket {
  if (!state.openTicket || state.openTicket.ticketId !== ticketId) throw notFound('open repair ticket');
  return state.openTicket;
}

const wrongStep = (ticket: RepairTicket, to: string): DomainError =>
  rule('ticket-transition', `a ${ticket.status} ticket cannot move to ${to}`, { ticketStatus: ticket.status });

export function decideTicket(command: TicketCommand, state: MachineState): MachineEvent[] {
  switch (command.type) {
    case 'ReportFault': {
      if (state.openTicket)
        throw rule('ticket-open', 'the machine already has an open repair ticket', { ticketId: state.openTicket.ticketId });
      const problem = textOf(command.data.problem, 'problem');
      const { ticketId, severity } = command.data;
      return [
        { type: 'MachineFaultReported', data: { ticketId, severity, problem, openedAt: command.at, statusBeforeFault: state.status } },
      ];
    }
    case 'AdvanceRepairTicket': {
      const ticket = ticketOf(state, command.data.ticketId);
      const { to, ticketId } = command.data;
      if (!STEPS_FROM[to].includes(ticket.status)) throw wrongStep(ticket, to);
      const assignedTo = optionalText(command.data.assignedTo);
      const part = optionalText(command.data.part);
      const checks = new FieldChecks();
      checks.check(to !== 'assigned' || assignedTo !== undefined, 'assignedTo', 'is required to assign the ticket');
      checks.check(to !== 'waiting-for-part' || part !== undefined, 'part', 'is required while waiting for a part');
      checks.throwIfAny();
      return [
        {
          type: 'RepairTicketAdvanced',
          data: { ticketId, from: ticket.status, to, ...(assignedTo ? { assignedTo } : {}), ...(part ? { part } : {}) },
        },
      ];
    }
    case 'CompleteRepair': {
      const ticket = ticketOf(state, command.data.ticketId);
      if (ticket.status !== 'in-progress') throw wrongStep(ticket, 'completed');
      const { ticketId, partsReplaced, cost, downtimeHours } = command.data;
      const workDone = textOf(command.data.workDone, 'workDone');
      const parts = partsReplaced.map((p) => ({ name: p.name.trim(), quantity: p.quantity }));
      return [{ type: 'RepairCompleted', data: { ticketId, workDone, partsReplaced: parts, ...(cost ? { cost } : {}), downtimeHours } }];
    }
    case 'CloseRepairTicket': {
      const ticket = ticketOf(state, command.data.ticketId);
      if (ticket.status !== 'completed') throw wrongStep(ticket, 'closed');
      const tests = command.data.tests.map((t) => ({ name: t.name.trim(), passed: t.passed }));
      new FieldChecks().check(tests.length > 0, 'tests', 'a ticket closes only with its return-to-service tests').throwIfAny();
      const allPassed = tests.every((t) => t.passed);
      const machineStatus = allPassed ? (state.restoreTo ?? 'available') : 'out-of-service';
      return [{ type: 'RepairTicketClosed', data: { ticketId: command.data.ticketId, tests, allPassed, machineStatus } }];
    }
  }
}
