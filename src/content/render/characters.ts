/** Small character fixes the reference applies to titles, content and excerpts. */

const BARE_AMPERSAND = /&([^#])(?![a-z1-4]{1,8};)/gi;

/** A bare `&` becomes `&#038;` unless it starts a numeric or short named entity. */
export function convertChars(text: string): string {
  return text.includes('&') ? text.replace(BARE_AMPERSAND, '&#038;$1') : text;
}

/** In titles every "Wordpress" is corrected. */
export function capitalizeBrandInTitle(text: string): string {
  return text.replaceAll('Wordpress', 'WordPress');
}

const BRAND_CONTEXTS = [' ', '&#8216;', '&#8220;', '>', '('];

/** In content only after a space, an opening quote, a tag or a parenthesis, so URLs and paths stay intact. */
export function capitalizeBrandInContent(text: string): string {
  if (!text.includes('Wordpress')) return text;
  let result = text;
  for (const before of BRAND_CONTEXTS) result = result.replaceAll(`${before}Wordpress`, `${before}WordPress`);
  return result;
}
