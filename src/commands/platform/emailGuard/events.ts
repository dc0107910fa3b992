// Uniqueness guard: one stream per lowercased e-mail (`platform.userEmail-<uuidv5(email)>`), appended
// with expected revision no_stream, so two registrations of one e-mail cannot both succeed.

export type EmailGuardEvent = { type: 'EmailReserved'; data: { email: string; userId: string } };
