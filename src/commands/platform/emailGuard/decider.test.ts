import assert from 'node:assert/strict';
import { command, given } from '../deciderSpec.js';
import { emailGuardDecider, emailGuardId, type EmailGuardCommand } from './decider.js';

describe('e-mail uniqueness guard', () => {
  it('reserves an e-mail once, case-insensitively', () => {
    const reserve = command<EmailGuardCommand>('ReserveEmail', { email: ' Ana@Clinic.Example ', userId: 'u1' });
    given(emailGuardDecider)
      .when(reserve)
      .then({ type: 'EmailReserved', data: { email: 'ana@clinic.example', userId: 'u1' } });
    given(emailGuardDecider, { type: 'EmailReserved', data: { email: 'ana@clinic.example', userId: 'u1' } })
      .when(reserve)
      .thenError('email-taken');
    assert.equal(emailGuardId('ANA@clinic.example'), emailGuardId('ana@clinic.example '));
  });
});
