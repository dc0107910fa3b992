// Signs in as a program that holds its account's TOTP secret (or as an API client), lists the first page of patients
// and registers one. Run: DIALYSIS_URL=... DIALYSIS_EMAIL=... DIALYSIS_PASSWORD=... DIALYSIS_TOTP_SECRET=...
// node --import tsx clients/typescript/examples/registerPatient.ts (or DIALYSIS_CLIENT_ID and DIALYSIS_CLIENT_SECRET).
import { randomInt, randomUUID } from 'node:crypto';
import { signInWithClientCredentials, signInWithTotp, type DialysisClient } from '../src/index.js';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

async function signIn(): Promise<DialysisClient> {
  const baseUrl = env('DIALYSIS_URL');
  if (process.env.DIALYSIS_CLIENT_ID) {
    const client = await signInWithClientCredentials({
      baseUrl,
      clientId: env('DIALYSIS_CLIENT_ID'),
      clientSecret: env('DIALYSIS_CLIENT_SECRET'),
    });
    console.log('Signed in as an API client');
    return client;
  }
  const companyId = process.env.DIALYSIS_COMPANY_ID;
  const session = await signInWithTotp({
    baseUrl,
    email: env('DIALYSIS_EMAIL'),
    password: env('DIALYSIS_PASSWORD'),
    totpSecret: env('DIALYSIS_TOTP_SECRET'),
    ...(companyId ? { companyId } : {}),
  });
  console.log(`Signed in to ${session.company.name} as ${session.roles.join(', ')}`);
  return session.client;
}

const api = await signIn();

const page = await api.GET('/pacientes', { params: { query: { limit: 20, status: 'active' } } });
if (!page.data) throw new Error(`GET /pacientes answered ${page.response.status}: ${JSON.stringify(page.error)}`);
console.log(`${page.data.items.length} patients on the first page`);
for (const patient of page.data.items) console.log(`- ${patient.familyNames}, ${patient.givenNames}`);

// The Idempotency-Key makes a retry of this request (after a timeout, say) register the patient once.
const registered = await api.POST('/pacientes', {
  params: { header: { 'Idempotency-Key': randomUUID() } },
  body: {
    documentType: 'DNI',
    documentNumber: String(randomInt(10_000_000, 99_999_999)),
    givenNames: 'Ada',
    familyNames: 'Lovelace',
    sex: 'female',
    birthDate: '1961-12-10',
    admissionDate: new Date().toISOString().slice(0, 10),
  },
});
if (!registered.data) throw new Error(`POST /pacientes answered ${registered.response.status}: ${JSON.stringify(registered.error)}`);
console.log(`Registered patient ${registered.data.id} (ETag ${registered.response.headers.get('ETag')})`);
