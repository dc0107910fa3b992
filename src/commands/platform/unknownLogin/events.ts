// Failed sign-ins against an e-mail that has no account: audited, and throttled exactly like an
// account's failures so the answers do not tell whether the account exists.

export type UnknownLoginEvent = {
  type: 'UnknownAccountLoginFailed';
  data: { email: string; consecutiveFailures: number; at: string };
};
