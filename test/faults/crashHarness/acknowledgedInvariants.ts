// Every acknowledged write (a 2xx answer received before the kill) is there after the restart: in the log, and in what
// the API answers; of two registrations racing for one document, at most one was acknowledged.
import type { Api, Json } from './api.js';
import type { EventLog } from './eventLog.js';
import { acknowledged, type Op } from './operations.js';

const bodyOf = (op: Op): Json => (op.outcome?.answered ? op.outcome.body : {});

async function sessionAt(api: Api, log: EventLog, op: Op, type: string): Promise<string[]> {
  const id = op.session!.sessionId;
  const out: string[] = [];
  if (!log.has('dialysisSession', id, type)) out.push(`${op.kind} of session ${id} was acknowledged but ${type} is not in the log`);
  const shown = await api.call('GET', `/dialisis/sesiones/${id}`);
  const revision = bodyOf(op).revision as number;
  if (shown.status !== 200 || (shown.body.revision as number) < revision)
    out.push(
      `${op.kind} of session ${id} was acknowledged at revision ${revision}; the API shows ${shown.status} revision ${String(shown.body.revision)}`,
    );
  return out;
}

async function acknowledgedPresent(api: Api, log: EventLog, op: Op): Promise<string[]> {
  const body = bodyOf(op);
  switch (op.kind) {
    case 'registration':
    case 'registration-race': {
      const id = body.id as string;
      const shown = await api.call('GET', `/pacientes/${id}`);
      const out = shown.status === 200 ? [] : [`registered patient ${id} was acknowledged; GET answers ${shown.status}`];
      if (!log.has('patient', id, 'PatientRegistered')) out.push(`registered patient ${id} was acknowledged but is not in the log`);
      return out;
    }
    case 'session-schedule': {
      const id = body.sessionId as string;
      const shown = await api.call('GET', `/dialisis/sesiones/${id}`);
      const out = shown.status === 200 ? [] : [`scheduled session ${id} was acknowledged; GET answers ${shown.status}`];
      if (!log.has('dialysisSession', id, 'SessionScheduled')) out.push(`scheduled session ${id} was acknowledged but is not in the log`);
      return out;
    }
    case 'session-start':
      return sessionAt(api, log, op, 'SessionStarted');
    case 'session-end':
      return sessionAt(api, log, op, 'SessionEnded');
    case 'transfer': {
      const id = body.movementId as string;
      return log.ofType('StockTransferredOut').some((e) => e.data.movementId === id)
        ? []
        : [`transfer ${id} was acknowledged but is not in the log`];
    }
    case 'serialized-issue': {
      const id = body.dialyzerId as string;
      const shown = await api.call('GET', `/filtros-dialisis/${id}`);
      if (shown.status !== 200) return [`serialized dialyzer ${id} was acknowledged; GET answers ${shown.status}`];
      return shown.body.patientId === op.body.patientId ? [] : [`dialyzer ${id} is not assigned to ${String(op.body.patientId)}`];
    }
    case 'invitation': {
      const email = op.body.email as string;
      return log.ofType('MembershipOffered').some((e) => e.data.email === email)
        ? []
        : [`the invitation of ${email} was acknowledged but no membership is offered in the log`];
    }
  }
}

export async function acknowledgedViolations(api: Api, log: EventLog, ops: Op[]): Promise<string[]> {
  const out: string[] = [];
  for (const op of ops.filter(acknowledged)) out.push(...(await acknowledgedPresent(api, log, op)));
  const raced = new Map<string, number>();
  for (const op of ops.filter((o) => o.kind === 'registration-race' && acknowledged(o))) {
    const doc = op.body.documentNumber as string;
    raced.set(doc, (raced.get(doc) ?? 0) + 1);
  }
  for (const [doc, n] of raced) if (n > 1) out.push(`two registrations racing for document ${doc} were both acknowledged`);
  return out;
}
