// Every string field refuses control and bidirectional-override characters (NUL, U+202E...) and lone surrogates;
// free text (nursing notes) still takes tab and newline. One rule, applied by the request validation.
import assert from 'node:assert/strict';
import { expectStatus, pointers, registration, startPacientesWorld, type PacientesWorld } from './pacientesWorld.js';

describe('text hygiene in requests', () => {
  let world: PacientesWorld;
  before(async () => {
    world = await startPacientesWorld();
  });
  after(async () => world?.close());

  const bad: [what: string, value: string][] = [
    ['NUL', 'Ana\u0000Maria'],
    ['a right-to-left override', 'Ana\u202Eairam'],
    ['a left-to-right isolate', 'Ana\u2066Maria'],
    ['a lone surrogate', 'Ana\uD800Maria'],
    ['a newline', 'Ana\nMaria'],
    ['a tab', 'Ana\tMaria'],
    ['DEL', 'Ana\u007FMaria'],
    ['a C1 control', 'Ana\u0085Maria'],
  ];
  for (const [what, value] of bad) {
    it(`refuses a name with ${what} (422 naming the field)`, async () => {
      const answer = expectStatus(
        await world.call(world.a, 'POST', '/pacientes', { json: registration({ givenNames: value }) }),
        422,
        'validation-failed',
      );
      assert.deepEqual(pointers(answer), ['/body/givenNames']);
    });
  }

  it('accepts names in any script, accents and combining marks included', async () => {
    for (const givenNames of ['María José', 'Zoë Ñuñez', 'محمد', 'דוד', '李小龍', 'Jose\u0301']) {
      await world.register(world.a, { givenNames });
    }
  });

  it('refuses control characters in query strings too', async () => {
    const answer = expectStatus(
      await world.call(world.a, 'GET', `/pacientes?q=${encodeURIComponent('Ana\u202E')}`),
      422,
      'validation-failed',
    );
    assert.deepEqual(pointers(answer), ['/query/q']);
  });

  it('takes tab and newline in a nursing note, and still refuses an override there', async () => {
    const patient = await world.register(world.a);
    const notes = `/pacientes/${patient.body.id}/notas`;
    const ok = expectStatus(
      await world.call(world.a, 'POST', notes, { json: { noteType: 'general', text: 'Line 1\n\tLine 2\r\nLine 3' } }),
      201,
    );
    assert.equal(ok.body.text, 'Line 1\n\tLine 2\r\nLine 3');
    const refused = expectStatus(
      await world.call(world.a, 'POST', notes, { json: { noteType: 'general', text: 'Line 1\u202E2 enil' } }),
      422,
      'validation-failed',
    );
    assert.deepEqual(pointers(refused), ['/body/text']);
  });

  it('answers the registration with exactly what was accepted', async () => {
    const created = await world.register(world.a, { givenNames: 'Ana María' });
    assert.equal(created.body.givenNames, 'Ana María');
  });
});
