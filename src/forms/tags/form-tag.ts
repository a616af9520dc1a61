/**
 * One scanned form-tag and the readers of its options (`id:`, `size:`, `40/100`, `limit:2mb`, `min:`, ...), as the
 * plugin reads them.
 */
import type { Pipes } from './pipes.js';

/** The tag as the REST interface shows it in `properties.form.fields`. */
export interface FormTagJson {
  type: string;
  basetype: string;
  name: string;
  options: string[];
  raw_values: string[];
  labels: string[];
  values: string[];
  pipes: [string, string][] | null;
  content: string;
}

const PRESET_PATTERNS: Readonly<Record<string, string>> = {
  date: '[0-9]{4}-[0-9]{2}-[0-9]{2}',
  int: '[0-9]+',
  signed_int: '[-]?[0-9]+',
  num: '(?:[0-9]+|(?:[0-9]+)?[.][0-9]+)',
  signed_num: '[-]?(?:[0-9]+|(?:[0-9]+)?[.][0-9]+)',
  class: '[-0-9a-zA-Z_]+',
  id: '[-0-9a-zA-Z_]+',
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export class FormTag {
  constructor(
    readonly type: string,
    readonly basetype: string,
    /** The name as written (dots kept); `name` has them replaced by `_`. */
    readonly rawName: string,
    readonly name: string,
    readonly options: readonly string[],
    readonly rawValues: readonly string[],
    readonly values: readonly string[],
    readonly labels: readonly string[],
    readonly pipes: Pipes | null,
    readonly content: string,
  ) {}

  get required(): boolean {
    return this.type.endsWith('*');
  }

  toJSON(): FormTagJson {
    return {
      type: this.type,
      basetype: this.basetype,
      name: this.name,
      options: [...this.options],
      raw_values: [...this.rawValues],
      labels: [...this.labels],
      values: [...this.values],
      pipes: this.pipes ? this.pipes.toArray() : null,
      content: this.content,
    };
  }

  /** `name` or `name:anything`, case-insensitive. */
  hasOption(name: string): boolean {
    const pattern = new RegExp(`^${escapeRegExp(name)}(:.+)?$`, 'i');
    return this.options.some((option) => pattern.test(option));
  }

  /** Every `name:value` whose value matches `pattern` (a preset name or a regex body). */
  optionValues(name: string, pattern = ''): string[] {
    const body = PRESET_PATTERNS[pattern] ?? (pattern === '' ? '.+' : pattern);
    const regex = new RegExp(`^${escapeRegExp(name)}:${body}$`, 'i');
    return this.options.filter((option) => regex.test(option)).map((option) => option.slice(name.length + 1));
  }

  /** The first `name:value` matching `pattern`, or null. */
  option(name: string, pattern = ''): string | null {
    return this.optionValues(name, pattern)[0] ?? null;
  }

  /** The `id:` option, unless it starts with `wpcf7` (the plugin's own ids). */
  idOption(): string | null {
    const id = this.option('id', 'id');
    return id && !id.startsWith('wpcf7') ? id : null;
  }

  /** The `id:` value reported with a validation error: null when missing, invalid or reserved. */
  idref(): string | null {
    const id = this.option('id', 'id') ?? '';
    return /^[A-Za-z][-A-Za-z0-9_:.]*$/.test(id) && !id.startsWith('wpcf7') ? id : null;
  }

  #firstMatch(pattern: RegExp): RegExpExecArray | null {
    for (const option of this.options) {
      const found = pattern.exec(option);
      if (found) return found;
    }
    return null;
  }

  #allMatches(pattern: RegExp): RegExpExecArray[] {
    return this.options.map((option) => pattern.exec(option)).filter((found): found is RegExpExecArray => found !== null);
  }

  /** `size:N` or the `N/` of the `size/maxlength` shorthand. */
  sizeOption(fallback: string | null = null): string | null {
    const explicit = this.option('size', 'int');
    if (explicit && explicit !== '0') return explicit;
    for (const found of this.#allMatches(/^([0-9]*)\/[0-9]*$/)) if (found[1]) return found[1];
    return fallback;
  }

  /** `maxlength:N` or the `/N` of the `40/100` and `40x10/2000` shorthands. */
  maxlengthOption(fallback: string | null = null): string | null {
    const explicit = this.option('maxlength', 'int');
    if (explicit && explicit !== '0') return explicit;
    for (const found of this.#allMatches(/^(?:[0-9]*x?[0-9]*)?\/([0-9]+)$/)) if (found[1]) return found[1];
    return fallback;
  }

  minlengthOption(): string | null {
    const explicit = this.option('minlength', 'int');
    return explicit && explicit !== '0' ? explicit : null;
  }

  colsOption(fallback: string | null = null): string | null {
    const explicit = this.option('cols', 'int');
    if (explicit && explicit !== '0') return explicit;
    for (const found of this.#allMatches(/^([0-9]*)x([0-9]*)(?:\/[0-9]+)?$/)) if (found[1]) return found[1];
    return fallback;
  }

  rowsOption(fallback: string | null = null): string | null {
    const explicit = this.option('rows', 'int');
    if (explicit && explicit !== '0') return explicit;
    for (const found of this.#allMatches(/^([0-9]*)x([0-9]*)(?:\/[0-9]+)?$/)) if (found[2]) return found[2];
    return fallback;
  }

  /** The upload size limit in bytes: `limit:N`, `limit:Nkb`, `limit:Nmb`; 1 MiB by default. */
  limitOption(fallback = 1024 * 1024): number {
    const found = this.#firstMatch(/^limit:([1-9][0-9]*)([kKmM]?[bB])?$/);
    if (!found) return fallback;
    const size = Number.parseInt(found[1]!, 10);
    const unit = (found[2] ?? '').toLowerCase();
    return unit === 'kb' ? size * 1024 : unit === 'mb' ? size * 1024 * 1024 : size;
  }

  /** `autocomplete:` tokens joined by spaces; `off`/`on` win; null when none is usable. */
  autocompleteOption(): string | null {
    const tokens = this.optionValues('autocomplete', '[-0-9a-zA-Z|]+')
      .flatMap((value) => value.toLowerCase().split('|'))
      .filter((token) => /^[a-z]+(?:-[0-9a-z]+)*$/.test(token));
    const unique = [...new Set(tokens)];
    if (unique.length === 0) return null;
    if (unique.includes('off')) return 'off';
    if (unique.includes('on')) return 'on';
    return unique.join(' ');
  }

  /** `class:` values after the defaults, sanitised as HTML class names, or null. */
  classOption(defaults = ''): string | null {
    const classes = [...defaults.split(' '), ...this.optionValues('class')]
      .map((name) => name.replace(/%[a-fA-F0-9]{2}/g, '').replace(/[^A-Za-z0-9_-]/g, ''))
      .filter((name) => name !== '');
    const unique = [...new Set(classes)];
    return unique.length === 0 ? null : unique.join(' ');
  }

  /**
   * The value a `default:` option picks: 1-based value indexes (`default:2`, `default:1_3`); the request- and
   * user-dependent sources (`get`, `post`, `post_meta`, `user_*`, `shortcode_attr`) have nothing to read when a
   * form is rendered without a page, so they give nothing.
   */
  defaultValues(): string[] {
    const picked: string[] = [];
    for (const option of this.optionValues('default')) {
      const key = option.toLowerCase().replace(/[^a-z0-9_-]/g, '');
      if (!/^[0-9_]+$/.test(key)) continue;
      for (const number of key.split('_')) {
        const value = this.values[Number.parseInt(number || '0', 10) - 1];
        if (value !== undefined) picked.push(value);
      }
    }
    return [...new Set(picked)];
  }
}
