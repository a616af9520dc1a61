/**
 * Filtering of `style` attributes in sanitised HTML: only listed properties (and custom properties) survive,
 * `url(...)` only with allowed protocols and only on background, cursor and list-style properties, and a
 * declaration containing `\`, `(`, `&`, `=`, `}` or a comment is dropped unless the parentheses belong to
 * `var()`, `calc()`, `min()`, `max()`, `minmax()`, `clamp()`, a gradient or an allowed `url()`.
 */
import { phpTrim } from '../php.js';
import { removeBadProtocols } from '../url.js';

export const SAFE_CSS_PROPERTIES: readonly string[] = [
  'background', 'background-color', 'background-image', 'background-position', 'background-size',
  'background-attachment', 'background-blend-mode',
  'border', 'border-radius', 'border-width', 'border-color', 'border-style',
  'border-right', 'border-right-color', 'border-right-style', 'border-right-width',
  'border-bottom', 'border-bottom-color', 'border-bottom-left-radius', 'border-bottom-right-radius',
  'border-bottom-style', 'border-bottom-width',
  'border-left', 'border-left-color', 'border-left-style', 'border-left-width',
  'border-top', 'border-top-color', 'border-top-left-radius', 'border-top-right-radius', 'border-top-style',
  'border-top-width',
  'border-spacing', 'border-collapse', 'caption-side',
  'columns', 'column-count', 'column-fill', 'column-gap', 'column-rule', 'column-span', 'column-width',
  'color', 'filter', 'font', 'font-family', 'font-size', 'font-style', 'font-variant', 'font-weight',
  'letter-spacing', 'line-height', 'text-align', 'text-decoration', 'text-indent', 'text-transform',
  'height', 'min-height', 'max-height', 'width', 'min-width', 'max-width',
  'margin', 'margin-right', 'margin-bottom', 'margin-left', 'margin-top',
  'margin-block-start', 'margin-block-end', 'margin-inline-start', 'margin-inline-end',
  'padding', 'padding-right', 'padding-bottom', 'padding-left', 'padding-top',
  'padding-block-start', 'padding-block-end', 'padding-inline-start', 'padding-inline-end',
  'flex', 'flex-basis', 'flex-direction', 'flex-flow', 'flex-grow', 'flex-shrink', 'flex-wrap',
  'gap', 'row-gap',
  'grid-template-columns', 'grid-auto-columns', 'grid-column-start', 'grid-column-end', 'grid-column-gap',
  'grid-template-rows', 'grid-auto-rows', 'grid-row-start', 'grid-row-end', 'grid-row-gap', 'grid-gap',
  'justify-content', 'justify-items', 'justify-self', 'align-content', 'align-items', 'align-self',
  'clear', 'cursor', 'direction', 'float', 'list-style-type', 'object-fit', 'object-position', 'overflow',
  'vertical-align',
];

const URL_PROPERTIES = ['background', 'background-image', 'cursor', 'list-style', 'list-style-image'];
const GRADIENT_PROPERTIES = ['background', 'background-image'];

const CUSTOM_PROPERTY = /^--[a-zA-Z0-9-_]+$/;
const URL_CALL = /url\([^)]+\)/g;
const URL_PARTS = /^url\([\t\n\v\f\r ]*(['"]?)([^\n]*)(\1)[\t\n\v\f\r ]*\)$/;
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\(([^()]|rgba?\([^()]*\))*\)$/;
const CSS_FUNCTION_START = /\b(?:var|calc|min|max|minmax|clamp)\(/g;
const UNSAFE_CHARACTERS = /[\\(&=}]|\/\*/;

export function filterStyleAttribute(css: string): string {
  const declarations = phpTrim(css.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/[\n\r\t]/g, '')).split(';');
  const kept: string[] = [];
  for (const rawDeclaration of declarations) {
    if (rawDeclaration === '') continue;
    const declaration = phpTrim(rawDeclaration);
    if (isSafeDeclaration(declaration)) kept.push(declaration);
  }
  return kept.join(';');
}

function isSafeDeclaration(declaration: string): boolean {
  const colon = declaration.indexOf(':');
  // A fragment without a colon is passed on to the character check, as the reference does.
  if (colon === -1) return !UNSAFE_CHARACTERS.test(removeCssFunctions(declaration));

  const property = phpTrim(declaration.slice(0, colon));
  const value = declaration.slice(colon + 1);
  const isCustom = CUSTOM_PROPERTY.test(property);
  if (!isCustom && !SAFE_CSS_PROPERTIES.includes(property)) return false;

  const trimmedValue = phpTrim(value);
  const urlAllowed = isCustom ? trimmedValue.startsWith('url(') : URL_PROPERTIES.includes(property);
  const gradientAllowed = isCustom ? trimmedValue.includes('-gradient(') : GRADIENT_PROPERTIES.includes(property);

  let tested = declaration;
  if (urlAllowed) {
    for (const [call] of value.matchAll(URL_CALL)) {
      const url = phpTrim(URL_PARTS.exec(call)?.[2] ?? '');
      if (url === '' || removeBadProtocols(url) !== url) return false;
      tested = tested.replaceAll(call, '');
    }
  }
  if (gradientAllowed && GRADIENT.test(trimmedValue)) tested = tested.replaceAll(trimmedValue, '');
  return !UNSAFE_CHARACTERS.test(removeCssFunctions(tested));
}

/** Removes calls to the allowed CSS functions, matching nested parentheses; unbalanced calls stay. */
function removeCssFunctions(text: string): string {
  let result = '';
  let copiedUpTo = 0;
  CSS_FUNCTION_START.lastIndex = 0;
  for (let match = CSS_FUNCTION_START.exec(text); match; match = CSS_FUNCTION_START.exec(text)) {
    let depth = 0;
    let end = -1;
    for (let index = match.index + match[0].length - 1; index < text.length; index++) {
      const character = text[index];
      if (character === '(') depth++;
      else if (character === ')' && --depth === 0) {
        end = index + 1;
        break;
      }
    }
    if (end === -1) continue;
    result += text.slice(copiedUpTo, match.index);
    copiedUpTo = end;
    CSS_FUNCTION_START.lastIndex = end;
  }
  return result + text.slice(copiedUpTo);
}
