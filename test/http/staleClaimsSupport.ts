// The command context of a write made straight to the store in a test, as the service would make it.
import type { CommandContext } from '../../src/commands/handleCommand.js';
import type { TestServer } from '../support/harness.js';

export const commandContextFor = (server: TestServer, tenantId: string): CommandContext => ({
  tenantId,
  actor: server.admin.userId,
  sessionId: null,
  correlationId: 'test-interrupted-correction',
  ip: null,
  userAgent: null,
  reason: 'typo',
  at: server.clock.now().toISOString(),
});
