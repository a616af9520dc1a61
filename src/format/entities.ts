/** The named character references of HTML 4.01, the ones the reference leaves intact when escaping text. */
export const HTML4_ENTITY_NAMES: ReadonlySet<string> = new Set(
  (
    'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn acute micro ' +
    'para middot cedil ordm raquo iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc ' +
    'Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc ' +
    'Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave ' +
    'iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute ' +
    'thorn yuml quot amp lt gt OElig oelig Scaron scaron Yuml circ tilde ensp emsp thinsp zwnj zwj lrm rlm ndash ' +
    'mdash lsquo rsquo sbquo ldquo rdquo bdquo dagger Dagger permil lsaquo rsaquo euro fnof Alpha Beta Gamma ' +
    'Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega ' +
    'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau ' +
    'upsilon phi chi psi omega thetasym upsih piv bull hellip prime Prime oline frasl weierp image real trade ' +
    'alefsym larr uarr rarr darr harr crarr lArr uArr rArr dArr hArr forall part exist empty nabla isin notin ni ' +
    'prod sum minus lowast radic prop infin ang and or cap cup int sim cong asymp ne equiv le ge sub sup nsub ' +
    'sube supe oplus otimes perp sdot lceil rceil lfloor rfloor lang rang loz spades clubs hearts diams sup1 ' +
    'sup2 sup3 frac14 frac12 frac34 there4'
  ).split(' '),
);

/** Whether a code point may appear in a numeric character reference (XML's Char production). */
export function isValidCodePoint(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    (codePoint >= 0x10000 && codePoint <= 0x10ffff)
  );
}

/**
 * HTML-escapes text the way the reference's `esc_html` does: `& < > " '` are escaped, but well-formed
 * character references are kept (numeric ones normalised: decimal padded to three digits, hex without
 * leading zeros) and malformed ones get their `&` escaped.
 */
export function escapeHtml(text: string): string {
  if (!/[&<>"']/.test(text)) return text;
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '&') {
      const reference = normaliseReference(text.slice(index));
      if (reference) {
        out += reference.text;
        index += reference.length - 1;
      } else {
        out += '&amp;';
      }
      continue;
    }
    out += ESCAPES[char] ?? char;
  }
  return out;
}

const ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

function normaliseReference(text: string): { text: string; length: number } | null {
  const named = /^&([A-Za-z]{2,8}[0-9]{0,2});/.exec(text);
  if (named) return HTML4_ENTITY_NAMES.has(named[1]!) ? { text: named[0], length: named[0].length } : null;
  const decimal = /^&#(0*[0-9]{1,7});/.exec(text);
  // A bare zero reference is dropped altogether by the reference.
  if (decimal?.[1] === '0') return { text: '', length: decimal[0].length };
  if (decimal) {
    if (!isValidCodePoint(Number(decimal[1]))) return null;
    return { text: `&#${decimal[1]!.replace(/^0+/, '').padStart(3, '0')};`, length: decimal[0].length };
  }
  const hex = /^&#[Xx](0*[0-9A-Fa-f]{1,6});/.exec(text);
  if (hex?.[1] === '0') return { text: '', length: hex[0].length };
  if (hex) {
    if (!isValidCodePoint(parseInt(hex[1]!, 16))) return null;
    return { text: `&#x${hex[1]!.replace(/^0+/, '')};`, length: hex[0].length };
  }
  return null;
}
