// A string a simple regular expression accepts, for the contract's examples: literals, escapes (\d \w \s \x21),
// classes ([A-Z0-9], negated: 'a'), groups with alternatives (the first), quantifiers (the least allowed, at least
// `repeat` for + and *). Lookarounds and backreferences are not simple: the caller checks the result.

const CLASS_ESCAPES: Record<string, string> = { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };

// One position of the pattern: the text it yields once, and where it ends.
function atom(p: string, i: number): { text: string; end: number } {
  const ch = p[i]!;
  if (ch === '\\') {
    const next = p[i + 1] ?? '';
    if (next in CLASS_ESCAPES) return { text: CLASS_ESCAPES[next]!, end: i + 2 };
    if (next === 'x') return { text: String.fromCharCode(parseInt(p.slice(i + 2, i + 4), 16)), end: i + 4 };
    if (next === 'u' && p[i + 2] === '{') {
      const close = p.indexOf('}', i);
      return { text: String.fromCodePoint(parseInt(p.slice(i + 3, close), 16)), end: close + 1 };
    }
    if (next === 'u') return { text: String.fromCharCode(parseInt(p.slice(i + 2, i + 6), 16)), end: i + 6 };
    return { text: next, end: i + 2 };
  }
  if (ch === '[') {
    let j = i + 1;
    const negated = p[j] === '^';
    if (negated) j++;
    let first = '';
    while (j < p.length && (p[j] !== ']' || j === i + 1)) {
      if (!first) first = p[j] === '\\' ? atom(p, j).text : p[j]!;
      j += p[j] === '\\' ? (p[j + 1] === 'x' ? 4 : 2) : 1;
    }
    return { text: negated ? (first === 'a' ? 'b' : 'a') : first, end: j + 1 };
  }
  if (ch === '(') {
    let depth = 0;
    let j = i;
    for (; j < p.length; j++) {
      if (p[j] === '\\') j++;
      else if (p[j] === '(') depth++;
      else if (p[j] === ')' && --depth === 0) break;
    }
    const inner = p.slice(i + 1, j).replace(/^\?(?::|<[A-Za-z]\w*>)/, '');
    return { text: sequence(firstAlternative(inner), 1), end: j + 1 };
  }
  if (ch === '.') return { text: 'a', end: i + 1 };
  return { text: ch, end: i + 1 };
}

function firstAlternative(p: string): string {
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === '(' || p[i] === '[') depth++;
    else if (p[i] === ')' || p[i] === ']') depth--;
    else if (p[i] === '|' && depth === 0) return p.slice(0, i);
  }
  return p;
}

function sequence(p: string, repeat: number): string {
  let out = '';
  for (let i = 0; i < p.length;) {
    if (p[i] === '^' || p[i] === '$') {
      i++;
      continue;
    }
    const { text, end } = atom(p, i);
    let times = 1;
    let next = end;
    const q = p[end];
    if (q === '+' || q === '*' || q === '?') {
      times = q === '+' ? Math.max(1, repeat) : q === '*' ? repeat : 0;
      next = end + 1;
    } else if (q === '{') {
      const close = p.indexOf('}', end);
      const [min, max] = p.slice(end + 1, close).split(',');
      const lo = Number(min);
      times = max === undefined ? lo : Math.max(lo, Math.min(repeat, max === '' ? repeat : Number(max)));
      next = close + 1;
    }
    if (p[next] === '?') next++; // lazy
    out += text.repeat(times);
    i = next;
  }
  return out;
}

/** Strings the pattern may accept, shortest first; the caller keeps the first the pattern and the lengths accept. */
export function patternCandidates(pattern: string): string[] {
  try {
    return [1, 3, 8, 20].map((repeat) => sequence(firstAlternative(pattern), repeat));
  } catch {
    return [];
  }
}
