// CSV cells a spreadsheet would run as a formula are defused: only a cell that is wholly a number keeps a leading '-'.
import assert from 'node:assert/strict';
import { csvCell, csvText } from './csv.js';

describe('CSV cells', () => {
  it('defuses a cell that starts like a number but goes on as a formula', () => {
    assert.equal(csvCell('-1+HYPERLINK("http://evil.example","x")'), `"'-1+HYPERLINK(""http://evil.example"",""x"")"`);
    assert.equal(csvCell("-2+3+cmd|' /C calc'!A0"), "'-2+3+cmd|' /C calc'!A0");
    assert.equal(csvCell('-1 '), "'-1 ");
    assert.equal(csvCell('-1.'), "'-1.");
    assert.equal(csvCell('-1e5'), "'-1e5");
    assert.equal(csvCell('-1\n=1+1'), `"'-1\n=1+1"`);
  });

  it('defuses every formula trigger: = + - @, a leading tab, CR or LF, and their full-width forms', () => {
    for (const text of ['=1+1', '+1+1', '-A1', '@SUM(A1)', '\t=1', '\r=1', '\n=1', '\uFF1D1+1', '\uFF0B1', '\uFF0D1', '\uFF20SUM(A1)']) {
      assert.ok(csvCell(text).replace(/^"/, '').startsWith("'"), JSON.stringify(text));
    }
  });

  it('writes numbers and plain text as they are', () => {
    assert.deepEqual(['-1', '-1.5', '12', '0.25', 'Droguería Sur', 'a-1'].map(csvCell), [
      '-1',
      '-1.5',
      '12',
      '0.25',
      'Droguería Sur',
      'a-1',
    ]);
    assert.deepEqual([-3, 4.5, 1e21, -1e-7].map(csvCell), ['-3', '4.5', '1e+21', '-1e-7']);
    assert.deepEqual([null, undefined, true, {}].map(csvCell), ['', '', '', '']);
  });

  it('sends the header row through the same cell function', () => {
    assert.equal(csvText(['=a', 'b,c'], [[-1, '-1+1']]), `'=a,"b,c"\r\n-1,'-1+1\r\n`);
  });
});
