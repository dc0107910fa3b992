import assert from 'node:assert/strict';
import { CHECKED_TAX_ID_TYPES, taxIdTypeFor, validateTaxId } from './taxIds.js';

// Real numbers are those of public bodies and listed companies, printed on their invoices and in each authority's
// public register (SUNAT Consulta RUC, AFIP constancia de inscripción, DIAN RUT, SII situación tributaria).
const accepted = (country: string, type: string, number: string) => {
  const result = validateTaxId(country, type, number);
  assert.ok(result.ok, `${country} ${number}: ${JSON.stringify(result)}`);
  return result.normalized;
};
const reason = (country: string, type: string, number: string) => {
  const result = validateTaxId(country, type, number);
  return result.ok ? 'accepted' : result.reason;
};

describe('tax ids: Peru RUC (SUNAT)', () => {
  it("accepts SUNAT's own RUC, checked by hand", () => {
    // Weights 5,4,3,2,7,6,5,4,3,2 over 2013131295: 10+0+3+6+7+18+5+8+27+10 = 94; 94 mod 11 = 6; 11 - 6 = 5.
    assert.equal(2 * 5 + 0 * 4 + 1 * 3 + 3 * 2 + 1 * 7 + 3 * 6 + 1 * 5 + 2 * 4 + 9 * 3 + 5 * 2, 94);
    assert.equal(11 - (94 % 11), 5);
    assert.equal(accepted('PE', 'RUC', '20131312955'), '20131312955');
    assert.equal(accepted('pe', 'ruc', ' 20-131312955 '), '20131312955');
  });

  it('writes 10 as 0 (EsSalud) and 11 as 1 (Municipalidad Metropolitana de Lima)', () => {
    // EsSalud 2013125775: 10+0+3+6+7+12+25+28+21+10 = 122; 122 mod 11 = 1; 11 - 1 = 10 -> 0.
    assert.equal(2 * 5 + 0 * 4 + 1 * 3 + 3 * 2 + 1 * 7 + 2 * 6 + 5 * 5 + 7 * 4 + 7 * 3 + 5 * 2, 122);
    assert.equal(accepted('PE', 'RUC', '20131257750'), '20131257750');
    // Lima 2013138095: 10+0+3+6+7+18+40+0+27+10 = 121; 121 mod 11 = 0; 11 - 0 = 11 -> 1.
    assert.equal(2 * 5 + 0 * 4 + 1 * 3 + 3 * 2 + 1 * 7 + 3 * 6 + 8 * 5 + 0 * 4 + 9 * 3 + 5 * 2, 121);
    assert.equal(accepted('PE', 'RUC', '20131380951'), '20131380951');
  });

  it('accepts the natural-person prefixes 10, 15 and 17 (numbers built by hand)', () => {
    // 1012345678: 5+0+3+4+21+24+25+24+21+16 = 143; 143 mod 11 = 0 -> 1.
    assert.equal(1 * 5 + 0 * 4 + 1 * 3 + 2 * 2 + 3 * 7 + 4 * 6 + 5 * 5 + 6 * 4 + 7 * 3 + 8 * 2, 143);
    assert.equal(accepted('PE', 'RUC', '10123456781'), '10123456781');
    // 1512345678 adds 5·4 = 20 to that: 163 mod 11 = 9; 11 - 9 = 2. 1712345678 adds 28: 171 mod 11 = 6 -> 5.
    assert.equal(accepted('PE', 'RUC', '15123456782'), '15123456782');
    assert.equal(accepted('PE', 'RUC', '17123456785'), '17123456785');
  });

  it('refuses one digit changed, a wrong length, a wrong prefix and letters', () => {
    assert.equal(reason('PE', 'RUC', '20131312954'), 'invalid-check-digit');
    assert.equal(reason('PE', 'RUC', '20131312965'), 'invalid-check-digit');
    assert.equal(reason('PE', 'RUC', '2013131295'), 'invalid-length');
    assert.equal(reason('PE', 'RUC', '201313129551'), 'invalid-length');
    // 30131312955 has a correct-looking shape but 30 is no RUC prefix.
    assert.equal(reason('PE', 'RUC', '30131312955'), 'invalid-prefix');
    assert.equal(reason('PE', 'RUC', '2013131295A'), 'invalid-characters');
  });
});

describe('tax ids: Argentina CUIT (AFIP)', () => {
  it("accepts AFIP's own CUIT, checked by hand, written 33-69345023-9", () => {
    // 3369345023: 15+12+18+18+21+24+25+0+6+6 = 145; 145 mod 11 = 2; 11 - 2 = 9.
    assert.equal(3 * 5 + 3 * 4 + 6 * 3 + 9 * 2 + 3 * 7 + 4 * 6 + 5 * 5 + 0 * 4 + 2 * 3 + 3 * 2, 145);
    assert.equal(accepted('AR', 'CUIT', '33693450239'), '33-69345023-9');
    assert.equal(accepted('AR', 'CUIT', '33-69345023-9'), '33-69345023-9');
    assert.equal(accepted('AR', 'CUIT', '33.69345023.9'), '33-69345023-9');
  });

  it('accepts other public CUITs: Banco de la Nación, YPF, ANSES, Universidad de Buenos Aires', () => {
    // Banco de la Nación 3050001091: 15+0+15+0+0+0+5+0+27+2 = 64; 64 mod 11 = 9; 11 - 9 = 2.
    assert.equal(3 * 5 + 0 * 4 + 5 * 3 + 0 * 2 + 0 * 7 + 0 * 6 + 1 * 5 + 0 * 4 + 9 * 3 + 1 * 2, 64);
    assert.equal(accepted('AR', 'CUIT', '30-50001091-2'), '30-50001091-2');
    assert.equal(accepted('AR', 'CUIT', '30-54668997-9'), '30-54668997-9');
    assert.equal(accepted('AR', 'CUIT', '33-63761744-9'), '33-63761744-9');
    assert.equal(accepted('AR', 'CUIT', '30-54666656-1'), '30-54666656-1');
  });

  it('writes 11 as 0 and refuses a number whose check would be 10 (AFIP changes the prefix instead)', () => {
    // 2012345670 (built by hand): 10+0+3+4+21+24+25+24+21+0 = 132; 132 mod 11 = 0; 11 - 0 = 11 -> 0.
    assert.equal(2 * 5 + 0 * 4 + 1 * 3 + 2 * 2 + 3 * 7 + 4 * 6 + 5 * 5 + 6 * 4 + 7 * 3 + 0 * 2, 132);
    assert.equal(accepted('AR', 'CUIT', '20-12345670-0'), '20-12345670-0');
    // 2000000000: 10; 10 mod 11 = 10; 11 - 10 = 1, so 20-00000000-1 is fine. 2000000001: 12 mod 11 = 1 -> 10: refused.
    assert.equal(accepted('AR', 'CUIT', '20-00000000-1'), '20-00000000-1');
    for (let d = 0; d <= 9; d++) assert.equal(reason('AR', 'CUIT', `2000000001${d}`), 'invalid-check-digit');
  });

  it('refuses one digit changed, a wrong length and a wrong prefix', () => {
    assert.equal(reason('AR', 'CUIT', '33-69345023-8'), 'invalid-check-digit');
    assert.equal(reason('AR', 'CUIT', '33-69345024-9'), 'invalid-check-digit');
    assert.equal(reason('AR', 'CUIT', '33-6934502-9'), 'invalid-length');
    assert.equal(reason('AR', 'CUIT', '21-12345678-6'), 'invalid-prefix');
    assert.equal(reason('AR', 'CUIT', '33-69345023-X'), 'invalid-characters');
  });
});

describe('tax ids: Colombia NIT (DIAN)', () => {
  it("accepts DIAN's own NIT with its DV, checked by hand, written 800197268-4", () => {
    // Weights 3,7,13,17,19,23,29,37,41 from the right over 800197268: 24+42+26+119+171+23+0+0+328 = 733;
    // 733 mod 11 = 7; 11 - 7 = 4.
    assert.equal(8 * 3 + 6 * 7 + 2 * 13 + 7 * 17 + 9 * 19 + 1 * 23 + 0 * 29 + 0 * 37 + 8 * 41, 733);
    assert.equal(11 - (733 % 11), 4);
    for (const typed of ['800197268-4', '800.197.268-4', '8001972684', '800 197 268 - 4']) {
      assert.equal(accepted('CO', 'NIT', typed), '800197268-4', typed);
    }
  });

  it('accepts a NIT without its DV and computes it', () => {
    assert.equal(accepted('CO', 'NIT', '800197268'), '800197268-4');
    assert.equal(accepted('CO', 'NIT', '900.123.456'), '900123456-8');
  });

  it('keeps a remainder of 0 or 1 as the DV: Ecopetrol 899999068-1; accepts Bancolombia and Éxito', () => {
    // 899999068: 24+42+0+153+171+207+261+333+328 = 1519; 1519 mod 11 = 1 -> DV 1.
    assert.equal(8 * 3 + 6 * 7 + 0 * 13 + 9 * 17 + 9 * 19 + 9 * 23 + 9 * 29 + 9 * 37 + 8 * 41, 1519);
    assert.equal(1519 % 11, 1);
    assert.equal(accepted('CO', 'NIT', '899999068-1'), '899999068-1');
    assert.equal(accepted('CO', 'NIT', '890903938-8'), '890903938-8');
    assert.equal(accepted('CO', 'NIT', '890900608-9'), '890900608-9');
  });

  it('refuses one digit changed, a wrong length and letters', () => {
    assert.equal(reason('CO', 'NIT', '800197268-5'), 'invalid-check-digit');
    assert.equal(reason('CO', 'NIT', '800197269-4'), 'invalid-check-digit');
    // A typed dash marks the DV: 8 digits before it are not read as a 9-digit NIT without DV.
    assert.equal(reason('CO', 'NIT', '80019726-4'), 'invalid-length');
    assert.equal(reason('CO', 'NIT', '800197268-'), 'invalid-length');
    assert.equal(reason('CO', 'NIT', '80019726'), 'invalid-length');
    assert.equal(reason('CO', 'NIT', '800197268-44'), 'invalid-length');
    assert.equal(reason('CO', 'NIT', '800197268-K'), 'invalid-characters');
  });
});

describe('tax ids: Chile RUT (SII)', () => {
  it("accepts the SII's own RUT 60.803.000-K, checked by hand, written without dots", () => {
    // Weights 2,3,4,5,6,7,2,3 from the right over 60803000: 0+0+0+15+0+56+0+18 = 89; 89 mod 11 = 1; 11 - 1 = 10 -> K.
    assert.equal(0 * 2 + 0 * 3 + 0 * 4 + 3 * 5 + 0 * 6 + 8 * 7 + 0 * 2 + 6 * 3, 89);
    assert.equal(11 - (89 % 11), 10);
    for (const typed of ['60.803.000-K', '60803000-k', '60803000K', ' 60 803 000 - K']) {
      assert.equal(accepted('CL', 'RUT', typed), '60803000-K', typed);
    }
  });

  it('writes 11 as 0 (Fonasa 61.603.000-0) and accepts Codelco, BancoEstado and Banco de Chile', () => {
    // 61603000: 0+0+0+15+0+42+2+18 = 77; 77 mod 11 = 0; 11 - 0 = 11 -> 0.
    assert.equal(0 * 2 + 0 * 3 + 0 * 4 + 3 * 5 + 0 * 6 + 6 * 7 + 1 * 2 + 6 * 3, 77);
    assert.equal(accepted('CL', 'RUT', '61.603.000-0'), '61603000-0');
    assert.equal(accepted('CL', 'RUT', '61.704.000-K'), '61704000-K');
    assert.equal(accepted('CL', 'RUT', '97.030.000-7'), '97030000-7');
    assert.equal(accepted('CL', 'RUT', '97.004.000-5'), '97004000-5');
  });

  it('accepts a 7-digit RUT and the canonical example 12.345.678-5', () => {
    // 12345678: 16+21+24+25+24+21+4+3 = 138; 138 mod 11 = 6; 11 - 6 = 5.
    assert.equal(8 * 2 + 7 * 3 + 6 * 4 + 5 * 5 + 4 * 6 + 3 * 7 + 2 * 2 + 1 * 3, 138);
    assert.equal(accepted('CL', 'RUT', '12.345.678-5'), '12345678-5');
    // 1234567: 14+18+20+20+18+14+2 = 106; 106 mod 11 = 7; 11 - 7 = 4.
    assert.equal(7 * 2 + 6 * 3 + 5 * 4 + 4 * 5 + 3 * 6 + 2 * 7 + 1 * 2, 106);
    assert.equal(accepted('CL', 'RUT', '1.234.567-4'), '1234567-4');
  });

  it('refuses one digit changed, a wrong length and a misplaced K', () => {
    assert.equal(reason('CL', 'RUT', '60.803.000-9'), 'invalid-check-digit');
    assert.equal(reason('CL', 'RUT', '60.803.001-K'), 'invalid-check-digit');
    assert.equal(reason('CL', 'RUT', '123.456-0'), 'invalid-length');
    assert.equal(reason('CL', 'RUT', '123.456.789-2'), 'invalid-length');
    assert.equal(reason('CL', 'RUT', '6080K000-1'), 'invalid-characters');
  });
});

describe('tax ids: other countries and the list', () => {
  it('accepts a free id of 3..30 characters [A-Z0-9-] as OTHER, upper-cased, without spaces or dots', () => {
    assert.deepEqual(validateTaxId('US', 'OTHER', '12-3456789'), { ok: true, normalized: '12-3456789', type: 'OTHER' });
    assert.equal(accepted('de', 'other', 'de 123.456.789'), 'DE123456789');
    assert.equal(accepted('ES', 'OTHER', 'b-12345678'), 'B-12345678');
    assert.equal(accepted('EC', 'OTHER', 'A1B'), 'A1B');
    assert.equal(accepted('EC', 'OTHER', 'X'.repeat(30)), 'X'.repeat(30));
  });

  it('refuses a free id too short, too long, with other characters or stray dashes', () => {
    assert.equal(reason('US', 'OTHER', 'A1'), 'invalid-length');
    assert.equal(reason('US', 'OTHER', 'X'.repeat(31)), 'invalid-length');
    assert.equal(reason('BR', 'OTHER', '12345678/0001-95'), 'invalid-characters');
    assert.equal(reason('FR', 'OTHER', 'ÉTAT123'), 'invalid-characters');
    assert.equal(reason('US', 'OTHER', '-123456'), 'invalid-format');
    assert.equal(reason('US', 'OTHER', '12--3456'), 'invalid-format');
  });

  it('refuses a type the country does not use, and a country code that is not two letters', () => {
    assert.equal(reason('PE', 'OTHER', '20131312955'), 'unsupported-type');
    assert.equal(reason('PE', 'RFC', '20131312955'), 'unsupported-type');
    assert.equal(reason('US', 'RUC', '20131312955'), 'unsupported-type');
    assert.equal(reason('PER', 'RUC', '20131312955'), 'invalid-country');
    assert.equal(reason('', 'OTHER', '123'), 'invalid-country');
  });

  it('refuses input longer than 64 characters before looking at it', () => {
    assert.equal(reason('PE', 'RUC', ' '.repeat(60) + '20131312955'), 'invalid-length');
  });

  it('lists the checked countries, and every canonical example passes its own check unchanged', () => {
    assert.deepEqual(
      CHECKED_TAX_ID_TYPES.map((t) => `${t.country}:${t.type}`),
      ['PE:RUC', 'MX:RFC', 'CO:NIT', 'CL:RUT', 'AR:CUIT'],
    );
    for (const t of CHECKED_TAX_ID_TYPES) assert.equal(accepted(t.country, t.type, t.canonical), t.canonical);
    assert.equal(taxIdTypeFor('mx'), 'RFC');
    assert.equal(taxIdTypeFor('BR'), 'OTHER');
  });
});
