import assert from 'node:assert/strict';
import { calendarDate } from './companyCalendar.js';

describe('company calendar', () => {
  it('counts the day in the company time zone', () => {
    const evening = new Date('2025-06-30T23:30:00Z'); // 18:30 in Lima, 19:30 in Mexico City... 01:30 next day in Madrid
    assert.equal(calendarDate(evening, 'America/Lima'), '2025-06-30');
    assert.equal(calendarDate(evening, 'Europe/Madrid'), '2025-07-01');
    assert.equal(calendarDate(new Date('2025-07-01T03:00:00Z'), 'America/Lima'), '2025-06-30');
    assert.equal(calendarDate(evening, 'Not/AZone'), '2025-06-30');
  });
});
