// Given guard events / when a claim or release / then events or a refusal.
import { scenario } from './givenWhenThen.js';
import { uniqueClaimDecider, type UniqueClaimCommand, type UniqueClaimEvent } from './uniqueClaim.js';

const given = scenario(uniqueClaimDecider('codeGuard', 'duplicate-code', 'taken'));
const at = '2025-03-01T10:00:00.000Z';
const claim = (holderId: string, holder?: { exists: boolean; graceSeconds: number }, when = at): UniqueClaimCommand => ({
  type: 'ClaimUniqueValue',
  data: { holderId, value: 'enf', ...(holder ? { holder } : {}) },
  at: when,
  actor: 'u1',
  aggregateId: 'g1',
  tenantId: 't1',
});
const release = (holderId: string): UniqueClaimCommand => ({
  type: 'ReleaseUniqueValue',
  data: { holderId },
  at,
  actor: 'u1',
  aggregateId: 'g1',
  tenantId: 't1',
});
const claimed = (holderId: string, claimedAt = at): UniqueClaimEvent => ({
  type: 'UniqueValueClaimed',
  data: { holderId, value: 'enf', claimedAt },
});

describe('unique value guard', () => {
  it('claims a free value, and takes a retry of the same holder as done', () => {
    given().when(claim('a')).then(claimed('a'));
    given(claimed('a')).when(claim('a')).then();
  });

  it('refuses another holder, naming the current one', () => {
    given(claimed('a')).when(claim('b')).thenError('duplicate-code');
    given(claimed('a'))
      .when(claim('b', { exists: true, graceSeconds: 0 }))
      .thenError('duplicate-code');
  });

  it('takes over a claim whose holder never appeared, once the grace period is over', () => {
    given(claimed('a'))
      .when(claim('b', { exists: false, graceSeconds: 600 }))
      .thenError('duplicate-code');
    const later = '2025-03-01T10:10:00.000Z';
    given(claimed('a'))
      .when(claim('b', { exists: false, graceSeconds: 600 }, later))
      .then({ type: 'UniqueValueReleased', data: { holderId: 'a', reason: 'orphaned-claim' } }, claimed('b', later));
  });

  it("releases only the holder's own claim", () => {
    given(claimed('a'))
      .when(release('a'))
      .then({ type: 'UniqueValueReleased', data: { holderId: 'a' } });
    given(claimed('a')).when(release('b')).then();
    given(claimed('a'), { type: 'UniqueValueReleased', data: { holderId: 'a' } })
      .when(claim('b'))
      .then(claimed('b'));
  });
});
