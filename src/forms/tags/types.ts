/**
 * The form-tag types the plugin registers, in its registration order (which is also the order of the tag
 * pattern's alternatives), with the features that decide how each is scanned, posted and mailed.
 */

export type TagFeature =
  | 'name-attr'
  | 'selectable-values'
  | 'multiple-controls-container'
  | 'zero-controls-container'
  | 'not-for-mail'
  | 'do-not-store'
  | 'file-uploading'
  | 'display-block'
  | 'display-hidden'
  | 'singular';

const REGISTRATIONS: readonly [types: readonly string[], features: readonly TagFeature[]][] = [
  [['acceptance'], ['name-attr', 'selectable-values']],
  [['checkbox', 'checkbox*', 'radio'], ['name-attr', 'selectable-values', 'multiple-controls-container']],
  [['count'], ['name-attr', 'zero-controls-container', 'not-for-mail']],
  [['date', 'date*'], ['name-attr']],
  [['file', 'file*'], ['name-attr', 'file-uploading']],
  [['hidden'], ['name-attr', 'display-hidden']],
  [['number', 'number*', 'range', 'range*'], ['name-attr']],
  [['quiz'], ['name-attr', 'do-not-store', 'not-for-mail']],
  [['captchac'], ['name-attr', 'zero-controls-container', 'not-for-mail']],
  [['captchar'], ['name-attr', 'do-not-store', 'not-for-mail']],
  [['reflection'], ['name-attr', 'display-block', 'not-for-mail']],
  [['output'], ['name-attr', 'not-for-mail']],
  [['response'], ['display-block']],
  [['select', 'select*'], ['name-attr', 'selectable-values']],
  [['stripe'], ['display-block', 'singular']],
  [['submit'], []],
  [['text', 'text*', 'email', 'email*', 'url', 'url*', 'tel', 'tel*'], ['name-attr']],
  [['textarea', 'textarea*'], ['name-attr']],
  [['turnstile'], ['display-block']],
];

const FEATURES = new Map<string, ReadonlySet<TagFeature>>();
for (const [types, features] of REGISTRATIONS) {
  for (const type of types) FEATURES.set(type, new Set(features));
}

export function isTagType(type: string): boolean {
  return FEATURES.has(type);
}

export function supports(type: string, feature: TagFeature): boolean {
  return FEATURES.get(type)?.has(feature) ?? false;
}

/** A valid form-control name: a letter, then letters, digits, `-`, `_`, `:` or `.`. */
export function isName(text: string): boolean {
  return /^[A-Za-z][-A-Za-z0-9_:.]*$/.test(text);
}
