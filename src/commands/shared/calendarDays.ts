// Calendar-day arithmetic on YYYY-MM-DD dates (no time zone: a date is a day of the company's calendar).

/** The date `days` after `date` (before it when negative). */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
