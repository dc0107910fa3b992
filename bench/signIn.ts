// Signs in through the real flow (login -> verify-2fa -> select company) with a TOTP code from the secret.
import { generate } from 'otplib';

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} -> ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export async function signInAndSelect(base: string, email: string, password: string, totpSecret: string): Promise<string> {
  const { challenge } = await post<{ challenge: string }>(`${base}/auth/login`, { email, password });
  const code = await generate({ secret: totpSecret });
  const { accessToken } = await post<{ accessToken: string }>(`${base}/auth/verify-2fa`, { challenge, code });
  const tenants = await fetch(`${base}/tenants`, { headers: { authorization: `Bearer ${accessToken}` } }).then(
    (r) => r.json() as Promise<{ items: { id: string }[] }>,
  );
  const id = tenants.items[0]!.id;
  await post(`${base}/tenants/${id}/select`, {}, accessToken);
  return accessToken;
}
