/**
 * oEmbed XML, both ways, with fast-xml-parser. Out: the reference's document (`<?xml version="1.0"?>`, an
 * `<oembed>` root, one element per key, list items as `<oembed>` elements, text escaped). In: a provider's answer,
 * read as the reference reads it (each child of the root element becomes a string field), refusing documents
 * with a DOCTYPE so no entity can be declared.
 */
import { fastXmlParser } from '../format/lazy-modules.js';
import { isNumeric, toPhpString } from '../format/php.js';

type OrderedNode = Record<string, OrderedNode[] | string>;

type Library = ReturnType<typeof fastXmlParser>;
let made: { builder: InstanceType<Library['XMLBuilder']>; parser: InstanceType<Library['XMLParser']> } | null = null;

/** The builder and parser, made on first use (the library loads then). */
function xml() {
  const { XMLBuilder, XMLParser } = fastXmlParser();
  made ??= {
    builder: new XMLBuilder({ preserveOrder: true, suppressEmptyNode: true, processEntities: true, ignoreAttributes: true }),
    parser: new XMLParser({
      ignoreAttributes: true,
      ignoreDeclaration: true,
      ignorePiTags: true,
      parseTagValue: false,
      processEntities: true,
      htmlEntities: false,
      trimValues: false,
    }),
  };
  return made;
}

const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const MAX_DEPTH = 32;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The document for a JSON answer (data or error), or null when there is none to make: the answer is not a
 * non-empty object or list, or a key is not a valid element name.
 */
export function oembedXml(data: unknown): string | null {
  if (!isContainer(data) || Object.keys(data).length === 0) return null;
  const children = childrenOf(data, 0);
  if (!children) return null;
  return `<?xml version="1.0"?>\n${xml().builder.build([{ oembed: children }]) as string}\n`;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

function childrenOf(data: Record<string, unknown> | unknown[], depth: number): OrderedNode[] | null {
  if (depth > MAX_DEPTH) return null;
  const nodes: OrderedNode[] = [];
  for (const [key, value] of Object.entries(data)) {
    const name = isNumeric(key) ? 'oembed' : key;
    if (!XML_NAME.test(name)) return null;
    let content: OrderedNode[];
    if (isContainer(value)) {
      const inner = childrenOf(value, depth + 1);
      if (!inner) return null;
      content = inner;
    } else {
      const text = toPhpString(value);
      content = text === '' ? [] : [{ '#text': text }];
    }
    nodes.push({ [name]: content });
  }
  return nodes;
}

/** A provider's XML answer as fields (all strings, as the reference reads them), or null when it is not usable. */
export function parseProviderXml(text: string): Record<string, string> | null {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) return null;
  if (fastXmlParser().XMLValidator.validate(text) !== true) return null;
  let document: unknown;
  try {
    document = xml().parser.parse(text);
  } catch {
    return null;
  }
  if (!isContainer(document)) return null;
  const roots = Object.entries(document).filter(([key]) => !key.startsWith('?') && key !== '#text');
  const root = roots[0]?.[1];
  if (!isContainer(root) || Array.isArray(root)) return null;
  // Unsafe names are skipped, so plain assignment cannot reach a prototype.
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(root)) {
    if (UNSAFE_KEYS.has(key) || key === '#text') continue;
    // A repeated element counts once, with its last value; an element's own text is its value.
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    fields[key] = typeof last === 'string' ? last : isContainer(last) && typeof (last as Record<string, unknown>)['#text'] === 'string'
      ? (last as Record<string, string>)['#text']!
      : '';
  }
  return Object.keys(fields).length > 0 ? fields : null;
}
