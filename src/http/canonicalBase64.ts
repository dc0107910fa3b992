// Sealed tokens travel as base64url: only the one canonical spelling of their bytes is accepted, so a token has one
// text (the unused low bits of the last character would otherwise let several texts open as the same token).

/** The bytes of `text`, or null when it is not exactly the base64url (unpadded) that those bytes encode to. */
export function canonicalBase64url(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}
