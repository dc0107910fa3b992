// Permissions of the Dialisis group: reading and recording, the nurse's sign-off, the physician's validation and prescribing.
export const TAG = 'Dialisis';
export const READ = 'dialisis:read';
export const WRITE = 'dialisis:write';
export const SIGN = 'dialisis:sign';
export const VALIDATE = 'dialisis:validate';
export const PRESCRIBE = 'dialisis:prescribe';
export const EXPORT = 'dialisis:export';
export const DIALISIS_PERMISSIONS = [READ, WRITE, SIGN, VALIDATE, PRESCRIBE, EXPORT] as const;
