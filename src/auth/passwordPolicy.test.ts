import assert from 'node:assert/strict';
import { checkNewPassword, commonPasswordCount } from './passwordPolicy.js';

const refusal = (password: string, context = {}) => {
  const result = checkNewPassword(password, context);
  return result.ok ? 'accepted' : result.reason;
};

describe('new password policy (ASVS 5.0 V6.2)', () => {
  it('bundles tens of thousands of common passwords, far above the top 3000 ASVS 6.2.4 asks for', () => {
    assert.equal(commonPasswordCount(), 49_233);
  });

  it('refuses fewer than 12 characters and accepts 12 without any composition rule', () => {
    assert.equal(refusal('short pass'), 'too-short');
    assert.equal(refusal('kgbmwqzrtlph'.slice(0, 11)), 'too-short');
    assert.equal(refusal('kgbmwqzrtlph'), 'accepted');
  });

  it('accepts 64 and 128 characters and refuses 129', () => {
    const long = 'correct horse battery staple, dialysis shift at 6 am, '.repeat(3);
    assert.equal(refusal(long.slice(0, 64)), 'accepted');
    assert.equal(refusal(long.slice(0, 128)), 'accepted');
    assert.equal(refusal(long.slice(0, 129)), 'too-long');
  });

  it('counts Unicode code points, not UTF-16 units or bytes', () => {
    // Each emoji is one code point and two UTF-16 units: 11 of them are 22 units but still too short.
    assert.equal(refusal('🦷'.repeat(11)), 'too-short');
    assert.equal(refusal('🦷'.repeat(12)), 'accepted');
    assert.equal(refusal('ñandú ñandú ñ'), 'accepted');
    assert.equal(refusal('🦷'.repeat(128)), 'accepted');
    assert.equal(refusal('🦷'.repeat(129)), 'too-long');
  });

  it('does not trim: surrounding spaces count as characters', () => {
    assert.equal(refusal('  ten chars '), 'accepted');
    assert.equal(refusal(' abcdefghij '), 'accepted');
  });

  it('refuses a common password of 12 or more characters from the list, in any letter case', () => {
    for (const common of ['passwordpassword', 'qwerty123456', '1qaz2wsx3edc', 'PasswordPassword', 'QWERTY123456']) {
      assert.equal(refusal(common), 'breached', common);
    }
  });

  it('accepts a long random passphrase', () => {
    assert.equal(refusal('tibia-harbor-velvet-quince-47'), 'accepted');
    assert.equal(refusal('Dializador reprocesado 3 veces, TCV 82 %'), 'accepted');
  });

  it("refuses a password containing the e-mail's local part or one of its parts of 4+ characters", () => {
    const email = 'maria.quispe@clinica.pe';
    assert.equal(refusal('maria.quispe2025!', { email }), 'contains-identity');
    assert.equal(refusal('xx QUISPE renal unit', { email }), 'contains-identity');
    assert.equal(refusal('Maria likes long walks', { email }), 'contains-identity');
    // "pe" and the domain are not the local part; short parts are not checked.
    assert.equal(refusal('clinica renal pe 2025', { email }), 'accepted');
    assert.equal(refusal('ana has twelve chars', { email: 'ana@clinica.pe' }), 'accepted');
  });

  it("refuses a password equal to or containing the user's name, ignoring case and accents' composition", () => {
    assert.equal(refusal('Ramírez Ñáñez 1990', { name: 'José Ramírez' }), 'contains-identity');
    // The same name typed with combining accents (NFD) is the same name.
    assert.equal(refusal('rami\u0301rez at the clinic', { name: 'José Ramírez' }), 'contains-identity');
    assert.equal(refusal('jose ramirez night', { name: 'José Ramírez' }), 'accepted');
    assert.equal(refusal('josé ramírez', { name: 'José Ramírez' }), 'contains-identity');
    assert.equal(refusal('José is twelve+', { name: 'José Ramírez' }), 'contains-identity');
    // Parts under 4 characters are not checked: "Ana" may appear, "Ana Paz" as a whole may not.
    assert.equal(refusal('Ana is twelve+', { name: 'Ana Paz' }), 'accepted');
    assert.equal(refusal('my name is ana paz', { name: 'Ana Paz' }), 'contains-identity');
  });

  it('names the rule in the detail without echoing the password', () => {
    const result = checkNewPassword('passwordpassword', {});
    assert.equal(result.ok, false);
    if (!result.ok) assert.ok(!result.detail.includes('passwordpassword'));
  });
});
