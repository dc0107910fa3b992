import { command, given } from '../deciderSpec.js';
import { bootstrapDecider, type BootstrapCommand } from './decider.js';
import type { BootstrapEvent } from './events.js';

const claimData = { adminUserId: 'u1', companyId: 'c1', adminEmail: 'admin@clinic.example', generatedCredentials: true };
const claimed: BootstrapEvent = { type: 'BootstrapClaimed', data: claimData };
const completed: BootstrapEvent = { type: 'BootstrapCompleted', data: { adminUserId: 'u1', companyId: 'c1' } };

describe('bootstrap decider', () => {
  it('is claimed once and completed once', () => {
    given(bootstrapDecider).when(command<BootstrapCommand>('ClaimBootstrap', claimData)).then(claimed);
    given(bootstrapDecider, claimed).when(command<BootstrapCommand>('ClaimBootstrap', claimData)).thenError('bootstrap-claimed');
    given(bootstrapDecider, claimed).when(command<BootstrapCommand>('CompleteBootstrap', {})).then(completed);
    given(bootstrapDecider, claimed, completed).when(command<BootstrapCommand>('CompleteBootstrap', {})).thenNothing();
    given(bootstrapDecider).when(command<BootstrapCommand>('CompleteBootstrap', {})).thenError('bootstrap-not-claimed');
  });
});
