// Given a prescribed dialyzer / when a dialyzer is brought to the start / then the reasons it is not the prescribed one.
import assert from 'node:assert/strict';
import { prescribedDialyzerReasons } from './prescribedDialyzer.js';

const prescribed = { model: 'FX80', flux: 'high', surfaceM2: 1.8 };

describe('the prescribed dialyzer at the start', () => {
  it('accepts the prescribed model, flux and surface (model compared trimmed and ignoring case)', () => {
    assert.deepEqual(prescribedDialyzerReasons({ model: ' fx80 ', flux: 'high', surfaceM2: 1.8 }, prescribed), []);
    assert.deepEqual(prescribedDialyzerReasons({ model: 'FX80', flux: 'high', surfaceM2: 1.8000001 }, prescribed), []);
  });

  it('names every difference: another model, another flux, another surface', () => {
    assert.deepEqual(prescribedDialyzerReasons({ model: 'FX60', flux: 'high', surfaceM2: 1.8 }, prescribed), [
      'dialyzer-model-not-prescribed',
    ]);
    assert.deepEqual(prescribedDialyzerReasons({ model: 'FX60', flux: 'low', surfaceM2: 1.4 }, prescribed), [
      'dialyzer-model-not-prescribed',
      'dialyzer-flux-not-prescribed',
      'dialyzer-surface-not-prescribed',
    ]);
  });

  it('has nothing to compare without a prescription (the start refuses that on its own)', () => {
    assert.deepEqual(prescribedDialyzerReasons({ model: 'FX60', flux: 'low', surfaceM2: 1.4 }, null), []);
  });
});
