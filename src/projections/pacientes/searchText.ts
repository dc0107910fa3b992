// Case- and accent-insensitive search over names and document numbers: documents keep a normalised
// `searchText`, and a query becomes one substring match per word of the normalised query.
import type { Filter } from '../../stores/readStore.js';

/** Lower case, accents and punctuation removed, single spaces: 'María-José  PÉREZ' -> 'mariajose perez'. */
export function normaliseText(text: string): string {
  return isLatin1(text) ? normaliseLatin1(text) : normaliseAny(text);
}

function normaliseAny(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// Names are nearly always Latin-1 (Spanish, Portuguese): a table made by the general rules above maps each
// such character to what it becomes (' ' for any space), several times faster than NFD and three regexes.
const LATIN1 = Array.from({ length: 256 }, (_, code) => {
  const c = String.fromCharCode(code);
  return /^\s$/.test(c) ? ' ' : normaliseAny(c);
});

function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 255) return false;
  return true;
}

function normaliseLatin1(text: string): string {
  const out: string[] = []; // joined once: a flat string, not a chain of concatenations kept in the document
  let space = false; // a space is pending: written before the next kept character, so none leads or trails
  for (let i = 0; i < text.length; i++) {
    const mapped = LATIN1[text.charCodeAt(i)]!;
    if (mapped === ' ') space = true;
    else if (mapped !== '') {
      if (space && out.length > 0) out.push(' ');
      space = false;
      out.push(mapped);
    }
  }
  return out.join('');
}

export function searchTextOf(p: { givenNames: string; familyNames: string; documentNumber: string }): string {
  return normaliseText(`${p.givenNames} ${p.familyNames} ${p.documentNumber}`);
}

/** Sort key of a name: family names first, as clinic censuses list patients. */
export function sortNameOf(p: { givenNames: string; familyNames: string }): string {
  return normaliseText(`${p.familyNames} ${p.givenNames}`);
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every word of the query must occur in the search text (as a substring, so prefixes match). */
export function searchFilter(q: string): Filter | null {
  const words = normaliseText(q).split(' ').filter(Boolean);
  if (words.length === 0) return null;
  // A RegExp object, not text: the read stores take patterns only in a form no request can produce (filterGuard.ts).
  return { $and: words.map((w) => ({ searchText: { $regex: new RegExp(escapeRegex(w)) } })) };
}
