/**
 * The reference's search: the text is split into terms (quoted phrases stay whole; stop-words, single letters and
 * lone dashes drop out), each term must appear in one of the searched fields, and a term starting with `-` must
 * appear in none. `orderby=relevance` ranks title matches first.
 */
import type { Condition, TextSearch } from '../../ports/storage.js';
import { phpTrim } from '../../format/php.js';

const STOP_WORDS = new Set([
  'about', 'an', 'are', 'as', 'at', 'be', 'by', 'com', 'for', 'from', 'how', 'in', 'is', 'it', 'of', 'on', 'or',
  'that', 'the', 'this', 'to', 'was', 'what', 'when', 'where', 'who', 'will', 'with', 'www',
]);

/** A quoted phrase (closing quote optional at the end), or a run of characters other than tab, space, `"`, `,`, `+`. */
const TERM_PATTERN = /".*?(?:"|$)|(?:(?<=[\t ",+])|^)[^\t ",+]+/g;

/** Search columns as the request names them → record fields. */
export const SEARCH_COLUMNS: Readonly<Record<string, string>> = {
  post_title: 'title',
  post_excerpt: 'excerpt',
  post_content: 'content',
};

export interface ParsedSearch {
  /** The text as searched (line breaks removed). */
  text: string;
  /** How many pieces the text split into, before stop-words were dropped. */
  pieceCount: number;
  /** Terms to find (exclusions already split off). */
  terms: string[];
  /** Terms that must not appear. */
  excludedTerms: string[];
}

function usefulTerms(pieces: readonly string[]): string[] {
  const terms: string[] = [];
  for (const piece of pieces) {
    // A fully quoted phrase keeps its inner spaces; other pieces lose surrounding spaces too.
    const term = /^".+"$/s.test(piece) ? phpTrim(piece, '"\'') : phpTrim(piece, '"\' ');
    if (term === '' || /^[a-z-]$/i.test(term)) continue;
    if (STOP_WORDS.has(term.toLowerCase())) continue;
    terms.push(term);
  }
  return terms;
}

export function parseSearch(input: string): ParsedSearch {
  const text = input.replace(/[\r\n]/g, '');
  const pieces = text.match(TERM_PATTERN) ?? [];
  let all = pieces.length > 0 ? usefulTerms(pieces) : [text];
  if (all.length === 0 || all.length > 9) all = [text];
  const terms: string[] = [];
  const excludedTerms: string[] = [];
  for (const term of all) {
    if (term.startsWith('-')) excludedTerms.push(term.slice(1));
    else terms.push(term);
  }
  return { text, pieceCount: Math.max(pieces.length, 1), terms, excludedTerms };
}

export function textSearch(parsed: ParsedSearch, fields: readonly string[], exact: boolean): TextSearch {
  const search: TextSearch = { fields: [...fields], terms: parsed.terms };
  if (parsed.excludedTerms.length > 0) search.excludedTerms = parsed.excludedTerms;
  if (exact) search.match = 'equals';
  return search;
}

const contains = (field: string, value: string): Condition => ({ field, op: 'textContains', value });

/**
 * The relevance ranks, best first: the whole text in the title; every term in the title; any term in the title
 * (fewer than seven terms); the whole text in the excerpt; in the content. One term: title matches first. The
 * whole-text ranks are skipped when the text holds an exclusion. Exact matching has no title ranks. With
 * `textVisible`, excerpt and content ranks apply only to records it holds for (whose protected text the caller
 * may read), so the order says nothing about hidden text.
 */
export function relevanceRank(parsed: ParsedSearch, exact: boolean, textVisible: Condition | null = null): Condition[] {
  const titleTerms = exact ? [] : parsed.terms.map((term) => contains('title', term));
  if (parsed.pieceCount <= 1) return titleTerms.slice(0, 1);
  const wholeText = /(?:\s|^)-/.test(parsed.text) ? null : parsed.text;
  const ranks: Condition[] = [];
  if (wholeText !== null) ranks.push(contains('title', wholeText));
  if (titleTerms.length > 0 && titleTerms.length < 7) {
    ranks.push({ op: 'and', conditions: titleTerms });
    if (titleTerms.length > 1) ranks.push({ op: 'or', conditions: titleTerms });
  }
  if (wholeText !== null) {
    for (const field of ['excerpt', 'content']) {
      ranks.push(textVisible ? { op: 'and', conditions: [textVisible, contains(field, wholeText)] } : contains(field, wholeText));
    }
  }
  return ranks;
}

/**
 * The search for lists where some records' text is password-protected from the caller (`textVisible` does not
 * hold for them): those match on their title alone, and exclusions only look at what the caller may read. The
 * caller keeps the plain search of the terms (without exclusions) beside this, which an index can answer.
 */
export function protectedTextSearch(parsed: ParsedSearch, fields: readonly string[], exact: boolean, textVisible: Condition): Condition {
  const op = exact ? 'textEquals' : 'textContains';
  const inAny = (columns: readonly string[], term: string): Condition => ({
    op: 'or',
    conditions: columns.map((field) => ({ field, op, value: term })),
  });
  const none = (columns: readonly string[]) => parsed.excludedTerms.map((term): Condition => ({ op: 'not', condition: inAny(columns, term) }));
  const shownFields = fields.filter((field) => field === 'title');
  return {
    op: 'or',
    conditions: [
      { op: 'and', conditions: [textVisible, ...none(fields)] },
      { op: 'and', conditions: [{ op: 'not', condition: textVisible }, ...parsed.terms.map((term) => inAny(shownFields, term)), ...none(shownFields)] },
    ],
  };
}
