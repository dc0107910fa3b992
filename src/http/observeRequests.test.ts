// Which requests get an access line: ACCESS_LOG and ACCESS_LOG_SAMPLE as given/when/then.
import assert from 'node:assert/strict';
import { accessLogged } from './observeRequests.js';

describe('access log sampling', () => {
  it('ACCESS_LOG=off writes no line, not even for a 500', () => {
    assert.equal(accessLogged({ accessLog: 'off', accessLogSample: 1 }, 500), false);
  });

  it('ACCESS_LOG=errors writes 4xx and 5xx only', () => {
    const errors = { accessLog: 'errors', accessLogSample: 1 } as const;
    assert.deepEqual(
      [200, 304, 401, 404, 429, 503].map((s) => accessLogged(errors, s)),
      [false, false, true, true, true, true],
    );
  });

  it('a sample keeps that share of successes and every error', () => {
    const tenth = { accessLog: 'all', accessLogSample: 0.1 } as const;
    assert.equal(
      accessLogged(tenth, 200, () => 0.05),
      true,
    );
    assert.equal(
      accessLogged(tenth, 200, () => 0.5),
      false,
    );
    assert.equal(
      accessLogged(tenth, 500, () => 0.99),
      true,
    );
    assert.equal(
      accessLogged({ accessLog: 'all', accessLogSample: 0 }, 201, () => 0),
      false,
    );
  });
});
