// READ_STORE_CACHE_MIB: the SQLite read store's page cache (the memory it fills while warming up) is a setting, a
// whole number of MiB; anything else stops the start with the setting's name.
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';

describe('READ_STORE_CACHE_MIB', () => {
  it('is unset by default (the store keeps its 64 MiB) and taken as given otherwise', () => {
    assert.equal(loadConfig({}).readStoreCacheMiB, undefined);
    assert.equal(loadConfig({ READ_STORE_CACHE_MIB: '8' }).readStoreCacheMiB, 8);
  });

  it('refuses a value that is not a whole number of MiB from 1 on', () => {
    for (const value of ['0', '-4', '1.5', 'lots']) {
      assert.throws(() => loadConfig({ READ_STORE_CACHE_MIB: value }), /READ_STORE_CACHE_MIB/, value);
    }
  });
});
