import assert from 'node:assert/strict';
import { scenario } from '../givenWhenThen.js';
import type { CommandEnvelope } from '../decider.js';
import { registryCodeGuardDecider, registryCodeKey, type RegistryCodeCommand, type RegistryCodeEvent } from './registryCodeGuard.js';

const given = scenario(registryCodeGuardDecider);
const AT = '2025-03-10T14:00:00.000Z';

function command<T extends RegistryCodeCommand['type']>(
  type: T,
  data: Extract<RegistryCodeCommand, CommandEnvelope<T>>['data'],
  at = AT,
): RegistryCodeCommand {
  return { type, data, at, actor: 'admin-1', aggregateId: 'guard-1', tenantId: 'clinic1' } as RegistryCodeCommand;
}
const claimed = (locationId: string, claimedAt = AT): RegistryCodeEvent => ({
  type: 'LocationRegistryCodeClaimed',
  data: { locationId, registryCode: '00012345', claimedAt },
});

describe('location registry code guard', () => {
  it('compares codes ignoring case, spaces, dots and dashes', () => {
    assert.equal(registryCodeKey(' 0001-2345 '), registryCodeKey('00012345'));
  });

  it('claims a free code, and answers a retry of the same claim with nothing', () => {
    given()
      .when(command('ClaimRegistryCode', { locationId: 'l-1', registryCode: '00012345' }))
      .then(claimed('l-1'));
    given(claimed('l-1'))
      .when(command('ClaimRegistryCode', { locationId: 'l-1', registryCode: '00012345' }))
      .then();
  });

  it("refuses another location's code, unless its holder never appeared and the grace period passed", () => {
    given(claimed('l-1'))
      .when(command('ClaimRegistryCode', { locationId: 'l-2', registryCode: '00012345' }))
      .thenError('duplicate-registry-code', (e) => assert.equal(e.details?.existingLocationId, 'l-1'));
    const late = '2025-03-10T14:11:00.000Z';
    given(claimed('l-1'))
      .when(
        command('ClaimRegistryCode', { locationId: 'l-2', registryCode: '00012345', holder: { exists: false, graceSeconds: 600 } }, late),
      )
      .then({ type: 'LocationRegistryCodeReleased', data: { locationId: 'l-1', reason: 'orphaned-claim' } }, claimed('l-2', late));
    given(claimed('l-1'))
      .when(command('ClaimRegistryCode', { locationId: 'l-2', registryCode: '00012345', holder: { exists: false, graceSeconds: 600 } }))
      .thenError('duplicate-registry-code');
  });

  it('releases only for its holder', () => {
    given(claimed('l-1'))
      .when(command('ReleaseRegistryCode', { locationId: 'l-1' }))
      .then({ type: 'LocationRegistryCodeReleased', data: { locationId: 'l-1' } });
    given(claimed('l-1'))
      .when(command('ReleaseRegistryCode', { locationId: 'l-2' }))
      .then();
  });
});
