import { scenario } from '../../givenWhenThen.js';
import { consequenceDecider, type ConsequenceCommand } from './consequenceDecider.js';
import { type ConsequenceEvent } from './consequenceEvents.js';

const given = scenario(consequenceDecider);
const data = { kind: 'machine-use', itemId: 'm1', causeEventId: 'e1' } as const;
const cmd = (refusal: { code: string; message: string } | null): ConsequenceCommand => ({
  type: 'RecordConsequence',
  data: { ...data, refusal },
  at: '2025-03-03T12:00:00.000Z',
  actor: 'process:session-consequences',
  aggregateId: 's1',
  tenantId: 't1',
});
const applied: ConsequenceEvent = { type: 'ConsequenceApplied', data };

describe('session consequences decider', () => {
  it('records an applied or a refused consequence once: a replay decides nothing', () => {
    given().when(cmd(null)).then(applied);
    given(applied).when(cmd(null)).then();
    const refusal = { code: 'machine-status', message: 'the machine is in corrective maintenance' };
    given()
      .when(cmd(refusal))
      .then({ type: 'ConsequenceRefused', data: { ...data, ...refusal } });
    given({ type: 'ConsequenceRefused', data: { ...data, ...refusal } })
      .when(cmd(refusal))
      .then();
  });
});
