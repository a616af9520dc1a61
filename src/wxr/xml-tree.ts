/**
 * One channel child (an item, an author, ...) parsed by fast-xml-parser into a small tree of known elements.
 * Entities: the document cannot declare any (the scanner refuses document types), fast-xml-parser's own
 * entity processing is off, and only XML's five predefined entities and character references are decoded
 * here, in text outside CDATA sections; CDATA is kept byte for byte. Elements the import does not read are
 * dropped while parsing, and names become values in the tree, never object keys, so no element name can
 * reach an object's prototype.
 */
import type { XMLParser } from 'fast-xml-parser';
import { fastXmlParser } from '../format/lazy-modules.js';
import { WxrError } from './errors.js';
import type { Fragment } from './scanner.js';

export interface XmlElement {
  name: string;
  /** Attribute values by name (a prototype-less object). */
  attributes: Readonly<Record<string, string>>;
  children: XmlElement[];
  /** The element's own text: text and CDATA sections in order, entities decoded. */
  text: string;
  /** The file line the enclosing channel child starts on. */
  line: number;
}

/** Every element name the import reads, at any depth of a channel child. */
const KNOWN = new Set([
  // Channel header.
  'title', 'link', 'description', 'language', 'wp:wxr_version', 'wp:base_site_url', 'wp:base_blog_url',
  // Authors and terms.
  'wp:author', 'wp:author_id', 'wp:author_login', 'wp:author_email', 'wp:author_display_name', 'wp:author_first_name',
  'wp:author_last_name', 'wp:category', 'wp:term_id', 'wp:category_nicename', 'wp:category_parent', 'wp:cat_name',
  'wp:category_description', 'wp:tag', 'wp:tag_slug', 'wp:tag_name', 'wp:tag_description', 'wp:term', 'wp:term_taxonomy',
  'wp:term_slug', 'wp:term_parent', 'wp:term_name', 'wp:term_description', 'wp:termmeta', 'wp:meta_key', 'wp:meta_value',
  // Items.
  'item', 'guid', 'dc:creator', 'content:encoded', 'excerpt:encoded', 'category', 'wp:post_id', 'wp:post_date',
  'wp:post_date_gmt', 'wp:post_modified', 'wp:post_modified_gmt', 'wp:comment_status', 'wp:ping_status', 'wp:post_name',
  'wp:status', 'wp:post_parent', 'wp:menu_order', 'wp:post_type', 'wp:post_password', 'wp:is_sticky', 'wp:attachment_url',
  'wp:postmeta',
  // Comments.
  'wp:comment', 'wp:comment_id', 'wp:comment_author', 'wp:comment_author_email', 'wp:comment_author_url',
  'wp:comment_author_IP', 'wp:comment_date', 'wp:comment_date_gmt', 'wp:comment_content', 'wp:comment_approved',
  'wp:comment_type', 'wp:comment_parent', 'wp:comment_user_id', 'wp:commentmeta',
]);
/** Deepest nesting accepted inside one channel child. */
export const MAX_FRAGMENT_DEPTH = 16;
const KNOWN_ATTRIBUTES = new Set(['domain', 'nicename', 'isPermaLink']);

let parser: XMLParser | undefined;
/** The parser, made on first use so that importing quire does not load the XML library. */
const makeParser = (): XMLParser => new (fastXmlParser().XMLParser)({
  preserveOrder: true,
  ignoreAttributes: (name) => !KNOWN_ATTRIBUTES.has(name),
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Known elements sit at most three levels below a channel child; the scanner bounds the whole document too.
  maxNestedTags: MAX_FRAGMENT_DEPTH,
  updateTag: (name) => KNOWN.has(name),
});

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's predefined entities and character references; anything else stays as written. */
export function decodeXmlText(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, name: string) => {
    if (name[0] !== '#') return PREDEFINED[name]!;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

type OrderedNode = Record<string, unknown>;

function toElement(node: OrderedNode, line: number): XmlElement | null {
  const name = Object.keys(node).find((key) => key !== ':@');
  if (name === undefined || name === '#text' || name === '#cdata') return null;
  const attributes: Record<string, string> = Object.create(null);
  const rawAttributes = node[':@'];
  if (rawAttributes && typeof rawAttributes === 'object') {
    for (const [key, value] of Object.entries(rawAttributes)) attributes[key] = decodeXmlText(String(value));
  }
  const element: XmlElement = { name, attributes, children: [], text: '', line };
  const content = node[name];
  for (const child of Array.isArray(content) ? (content as OrderedNode[]) : []) {
    if (typeof child['#text'] === 'string' || typeof child['#text'] === 'number') {
      element.text += decodeXmlText(String(child['#text']));
    } else if (Array.isArray(child['#cdata'])) {
      for (const part of child['#cdata'] as OrderedNode[]) element.text += String(part['#text'] ?? '');
    } else {
      const nested = toElement(child, line);
      if (nested) element.children.push(nested);
    }
  }
  return element;
}

/** Parses one channel child; malformed XML fails with `wxr_parse_error` on the file's line. */
export function parseFragment(fragment: Fragment): XmlElement | null {
  const checked = fastXmlParser().XMLValidator.validate(fragment.xml, { allowBooleanAttributes: false });
  if (checked !== true) {
    throw new WxrError('wxr_parse_error', `${checked.err.msg} (column ${checked.err.col})`, fragment.line + checked.err.line - 1);
  }
  let nodes: OrderedNode[];
  try {
    nodes = (parser ??= makeParser()).parse(fragment.xml) as OrderedNode[];
  } catch (error) {
    const message = (error as Error).message;
    const reason = message.includes('[SECURITY]') ? 'an element or attribute is named __proto__, constructor or prototype' : message;
    throw new WxrError('wxr_parse_error', `<${fragment.name}>: ${reason}`, fragment.line);
  }
  const root = nodes.find((node) => !('#text' in node));
  return root ? toElement(root, fragment.line) : null;
}

/** The first child of that name, or undefined. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((candidate) => candidate.name === name);
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((candidate) => candidate.name === name);
}

/** The text of the first child of that name, `''` when there is none. */
export function textOf(element: XmlElement, name: string): string {
  return child(element, name)?.text ?? '';
}
