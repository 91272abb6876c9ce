/**
 * Which part of an e-mail search the trigram index looks up.
 *
 * A GIN trigram index answers `LIKE '%fragment%'` by reading one posting list per trigram of the
 * fragment, and the list of a trigram most members share (`mem`, `com`, the team's own domain) is as
 * long as the team. A part of the fragment whose trigrams are rare finds a small superset of the
 * matches from short lists; the whole fragment is then checked on those rows alone. The result is the
 * same whichever part is chosen: only the cost changes.
 */

/** How often a trigram occurs: the fraction of members whose search e-mail holds it. */
export type TrigramFrequency = (trigram: string) => number;

interface Span {
  trigram: string;
  /** The characters of the fragment this trigram needs, padding included: [start, end). */
  start: number;
  end: number;
}

/**
 * What visiting one candidate row costs against reading one posting-list entry, as measured on
 * PostgreSQL 18 (a heap page visit and recheck ≈ 1 µs; a posting entry ≈ 5 ns).
 */
const ROW_VISIT_COST = 200;

/**
 * The trigrams pg_trgm extracts from `LIKE '%s%'` where s is fragment[start, end): each word (a run of
 * letters and digits) is padded with two spaces before and one after, but only on a side where a
 * non-word character of s bounds it (a side at a `%` is open). Each trigram carries the span of s
 * it depends on, so the trigrams of any part of s are those whose span lies within that part.
 */
function trigramSpans(fragment: string): Span[] {
  const spans: Span[] = [];
  for (const word of fragment.matchAll(/[a-z0-9]+/g)) {
    const from = word.index;
    const to = from + word[0].length;
    // Each character of the padded word, with the position of the fragment it stands for.
    const padded: Array<[string, number]> = [];
    if (from > 0) padded.push([' ', from - 1], [' ', from - 1]);
    for (let i = from; i < to; i++) padded.push([fragment[i], i]);
    if (to < fragment.length) padded.push([' ', to]);
    for (let i = 0; i + 3 <= padded.length; i++) {
      const three = padded.slice(i, i + 3);
      spans.push({
        trigram: three.map(([c]) => c).join(''),
        start: three[0][1],
        end: three[2][1] + 1,
      });
    }
  }
  return spans;
}

/**
 * The part of `fragment` (already lower-case) to look up in the index: the one estimated cheapest, a
 * longer one when two cost the same. A part costs the posting lists of its trigrams (the sum of their
 * frequencies) and the visits to the rows they all hold, estimated as if trigrams were independent (the
 * product): adjacent trigrams are not, so a long part is thought more selective than it is, but adding
 * a rare trigram costs little, and a common one is never worth its list. The whole fragment when it is
 * not plain ASCII (lower-casing it here and in PostgreSQL could then differ), when no frequencies are
 * known, or when no part of it has a trigram.
 */
export function searchLookup(fragment: string, frequency: TrigramFrequency | undefined): string {
  if (!frequency || !/^[\x20-\x7e]*$/.test(fragment)) return fragment;
  const endingAt: Array<Array<{ trigram: string; start: number; frequency: number }>> = Array.from(
    { length: fragment.length + 1 },
    () => [],
  );
  for (const span of trigramSpans(fragment))
    endingAt[span.end].push({ ...span, frequency: frequency(span.trigram) });
  let best = { start: 0, end: fragment.length, cost: Infinity };
  for (let start = 0; start < fragment.length; start++) {
    // Growing the part one character at a time adds the trigrams ending there, and removes none.
    const inside = new Set<string>();
    let postings = 0;
    let share = 1;
    for (let end = start + 1; end <= fragment.length; end++) {
      for (const span of endingAt[end]) {
        if (span.start < start || inside.has(span.trigram)) continue;
        inside.add(span.trigram);
        postings += span.frequency;
        share *= span.frequency;
      }
      // A part with no trigram would make the index read every entry.
      if (!inside.size) continue;
      const cost = postings + share * ROW_VISIT_COST;
      if (cost < best.cost || (cost === best.cost && end - start > best.end - best.start))
        best = { start, end, cost };
    }
  }
  return fragment.slice(best.start, best.end);
}
