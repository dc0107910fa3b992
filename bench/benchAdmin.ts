// The benchmark's own first administrator (loopback runs only): one definition for every section and profile script.
export const BENCH_CREDS = {
  email: 'bench@example.org',
  password: 'loopback only 9f3k2 passphrase',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
};

/** The environment a bench service bootstraps that administrator and its company from. */
export const BENCH_SERVICE_ENV = {
  BOOTSTRAP_ADMIN_EMAIL: BENCH_CREDS.email,
  BOOTSTRAP_ADMIN_PASSWORD: BENCH_CREDS.password,
  BOOTSTRAP_ADMIN_TOTP_SECRET: BENCH_CREDS.totpSecret,
  BOOTSTRAP_COMPANY_NAME: 'Clínica Benchmark',
};
