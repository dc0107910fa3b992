// Case- and accent-insensitive search over names and document numbers: documents keep a normalised
// `searchText`, and a query becomes one substring match per word of the normalised query.
import type { Filter } from '../../stores/readStore.js';

/** Lower case, accents and punctuation removed, single spaces: 'María-José  PÉREZ' -> 'mariajose perez'. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
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
  return { $and: words.map((w) => ({ searchText: { $regex: escapeRegex(w) } })) };
}
