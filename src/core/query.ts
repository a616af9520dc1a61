import type { ParamMap, ParamValue } from './types.js';

/**
 * Parses a query string (or a urlencoded body) the way PHP fills `$_GET`: the last of repeated keys wins,
 * `a[]=1&a[]=2` gives a list, `a[x][y]=3` gives nested maps, `+` is a space, and dots or spaces in the base
 * name become underscores. Every leaf is a string.
 */
export function parseQueryString(text: string): ParamMap {
  const params: ParamMap = {};
  if (!text) return params;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawName = separator === -1 ? pair : pair.slice(0, separator);
    const rawValue = separator === -1 ? '' : pair.slice(separator + 1);
    const name = decodeComponent(rawName);
    if (name === '') continue;
    assign(params, name, decodeComponent(rawValue));
  }
  return params;
}

function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

function assign(params: ParamMap, name: string, value: string): void {
  const bracket = name.indexOf('[');
  const closes = bracket > 0 && name.indexOf(']', bracket) !== -1;
  const baseName = (closes ? name.slice(0, bracket) : name).replace(/^ +/, '').replace(/[. []/g, '_');
  if (baseName === '') return;
  if (!closes) {
    setOwn(params, baseName, value);
    return;
  }
  const keys: string[] = [];
  const keyPattern = /\[([^\]]*)\]/y;
  keyPattern.lastIndex = bracket;
  for (let match = keyPattern.exec(name); match; match = keyPattern.exec(name)) keys.push(match[1] ?? '');
  setNested(params, [baseName, ...keys], value);
}

type Container = Record<string, ParamValue> | ParamValue[];

function setNested(container: Container, keys: string[], value: string): void {
  const [key, ...rest] = keys;
  if (key === undefined) return;
  const slots = container as unknown as Record<string, ParamValue>;
  const slot = key !== '' ? key : String(Array.isArray(container) ? container.length : nextIndex(slots));
  if (rest.length === 0) {
    setOwn(slots, slot, value);
    return;
  }
  let child = Object.hasOwn(slots, slot) ? slots[slot] : undefined;
  if (child === undefined || typeof child !== 'object') {
    child = rest[0] === '' ? [] : {};
    setOwn(slots, slot, child);
  } else if (Array.isArray(child) && rest[0] !== '' && !/^\d+$/.test(rest[0] ?? '')) {
    child = { ...child };
    setOwn(slots, slot, child);
  }
  setNested(child, rest, value);
}

/**
 * Stores a parameter as an own property whatever its name: `__proto__` is an ordinary key in a query string, and
 * plain assignment would reach (and change) a prototype instead.
 */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function nextIndex(map: Record<string, ParamValue>): number {
  let next = 0;
  for (const key of Object.keys(map)) {
    if (/^\d+$/.test(key)) next = Math.max(next, Number(key) + 1);
  }
  return next;
}

/** Encodes parameters back into a query string (used for pagination links), PHP `http_build_query` style. */
export function buildQueryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const visit = (prefix: string, value: unknown): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(`${prefix}[${index}]`, item));
    } else if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) visit(`${prefix}[${key}]`, item);
    } else {
      const text = typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
      parts.push(`${encodeQueryComponent(prefix)}=${encodeQueryComponent(text)}`);
    }
  };
  for (const [key, value] of Object.entries(params)) visit(key, value);
  return parts.join('&');
}

function encodeQueryComponent(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
