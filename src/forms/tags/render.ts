/** The HTML of each form-tag, with the plugin's markup, classes and attributes. */
import { resolveDateOption, type SiteTime } from '../dates.js';
import { TEXTS } from '../defaults.js';
import { acceptedFileTypes } from '../swv/schema.js';
import { escapeHtml } from '../text.js';
import { isNumber } from '../validators.js';
import type { FormTag } from './form-tag.js';

type AttributeValue = string | number | boolean | null | undefined;

const BOOLEAN_ATTRIBUTES = new Set(['checked', 'disabled', 'inert', 'multiple', 'readonly', 'required', 'selected']);

/** Attributes as `name="value"`: null/false left out, true as `name="name"`, values trimmed and escaped. */
export function formatAttributes(attributes: Readonly<Record<string, AttributeValue>>): string {
  const output: string[] = [];
  for (const [rawName, rawValue] of Object.entries(attributes)) {
    const name = rawName.trim().toLowerCase();
    if (!/^[a-z_:][a-z_:.0-9-]*$/.test(name)) continue;
    let value = rawValue;
    if (BOOLEAN_ATTRIBUTES.has(name) && value === '') value = false;
    if (value === null || value === undefined || value === false) continue;
    const text = value === true ? name : String(value).trim();
    output.push(`${name}="${escapeHtml(text)}"`);
  }
  return output.join(' ');
}

export function controlClass(type: string, defaults = ''): string {
  const classes = ['wpcf7-form-control', `wpcf7-${type.replace(/\*+$/, '')}`];
  if (type.endsWith('*')) classes.push('wpcf7-validates-as-required');
  classes.push(...defaults.split(' '));
  return [...new Set(classes.filter((name) => name !== ''))].join(' ');
}

const wrap = (tag: FormTag, inner: string) =>
  `<span class="wpcf7-form-control-wrap" data-name="${escapeHtml(tag.name)}">${inner}</span>`;

/** The visible value and placeholder of a tag: the first value, or the placeholder when `placeholder` is set. */
function valueAndPlaceholder(tag: FormTag, first: string): { value: string; placeholder: string | null } {
  const placeholderWanted = tag.hasOption('placeholder') || tag.hasOption('watermark');
  const value = placeholderWanted ? '' : first;
  const defaults = tag.defaultValues();
  return { value: defaults[0] ?? value, placeholder: placeholderWanted ? first : null };
}

function lengths(tag: FormTag, defaultMaximum: string): { maxlength: string | null; minlength: string | null } {
  const maxlength = tag.maxlengthOption(defaultMaximum);
  const minlength = tag.minlengthOption();
  if (maxlength && minlength && Number(maxlength) < Number(minlength)) return { maxlength: null, minlength: null };
  return { maxlength, minlength };
}

function common(tag: FormTag, classes: string): Record<string, AttributeValue> {
  return {
    class: tag.classOption(classes),
    id: tag.idOption(),
    tabindex: tag.option('tabindex', 'signed_int'),
  };
}

export interface RenderEnvironment {
  now: Date;
  siteTime: SiteTime;
  /** The quiz question and answer hash to show for a quiz tag. */
  quiz(tag: FormTag): [string, string];
  /** The response output (`[response]` or the end of the form). */
  response(): string;
}

export function renderTag(tag: FormTag, environment: RenderEnvironment): string {
  const required = tag.required ? { 'aria-required': 'true' } : {};
  switch (tag.basetype) {
    case 'text': case 'email': case 'url': case 'tel': {
      if (!tag.name) return '';
      const extra = tag.basetype === 'text' ? '' : ` wpcf7-validates-as-${tag.basetype}`;
      const { value, placeholder } = valueAndPlaceholder(tag, tag.values[0] ?? '');
      const attributes = {
        size: tag.sizeOption('40'), ...lengths(tag, '400'), ...common(tag, `${controlClass(tag.type, 'wpcf7-text')}${extra}`),
        list: tag.option('list', 'id'), readonly: tag.hasOption('readonly'), autocomplete: tag.autocompleteOption(),
        ...required, 'aria-invalid': 'false', placeholder, value, type: tag.basetype, name: tag.name,
      };
      return wrap(tag, `<input ${formatAttributes(attributes)} />`);
    }
    case 'textarea': {
      if (!tag.name) return '';
      const { value, placeholder } = valueAndPlaceholder(tag, tag.content !== '' ? tag.content : (tag.values[0] ?? ''));
      const attributes = {
        cols: tag.colsOption('40'), rows: tag.rowsOption('10'), ...lengths(tag, '2000'), ...common(tag, controlClass(tag.type)),
        readonly: tag.hasOption('readonly'), autocomplete: tag.autocompleteOption(), ...required, 'aria-invalid': 'false',
        placeholder, name: tag.name,
      };
      return wrap(tag, `<textarea ${formatAttributes(attributes)}>${escapeHtml(value)}</textarea>`);
    }
    case 'number': case 'range': {
      if (!tag.name) return '';
      const { value, placeholder } = valueAndPlaceholder(tag, tag.values[0] ?? '');
      let minimum = tag.option('min', 'signed_num');
      let maximum = tag.option('max', 'signed_num');
      let shown: string | number = value;
      if (tag.basetype === 'range') {
        if (minimum === null || !isNumber(minimum)) minimum = '0';
        if (maximum === null || !isNumber(maximum)) maximum = '100';
        if (shown === '') shown = Number(minimum) < Number(maximum) ? (Number(minimum) + Number(maximum)) / 2 : minimum;
      }
      const attributes = {
        ...common(tag, `${controlClass(tag.type)} wpcf7-validates-as-number`), min: minimum, max: maximum,
        step: tag.option('step', 'num'), readonly: tag.hasOption('readonly'), autocomplete: tag.autocompleteOption(),
        ...required, 'aria-invalid': 'false', placeholder, value: shown, type: tag.basetype, name: tag.name,
      };
      return wrap(tag, `<input ${formatAttributes(attributes)} />`);
    }
    case 'date': {
      if (!tag.name) return '';
      const { value, placeholder } = valueAndPlaceholder(tag, tag.values[0] ?? '');
      const dateOf = (option: string | null) => (option ? resolveDateOption(option, environment.now, environment.siteTime) : null);
      const attributes = {
        ...common(tag, `${controlClass(tag.type)} wpcf7-validates-as-date`), min: dateOf(tag.option('min')), max: dateOf(tag.option('max')),
        step: tag.option('step', 'int'), readonly: tag.hasOption('readonly'), autocomplete: tag.autocompleteOption(), ...required,
        'aria-invalid': 'false', placeholder, value: value ? (dateOf(value) ?? value) : value, type: 'date', name: tag.name,
      };
      return wrap(tag, `<input ${formatAttributes(attributes)} />`);
    }
    case 'select': return renderSelect(tag);
    case 'checkbox': case 'radio': return renderChoices(tag);
    case 'acceptance': return renderAcceptance(tag);
    case 'quiz': {
      if (!tag.name) return '';
      const [question, hash] = environment.quiz(tag);
      const attributes = {
        size: tag.sizeOption('40'), ...lengths(tag, ''), ...common(tag, controlClass(tag.type)), autocomplete: 'off',
        'aria-required': 'true', 'aria-invalid': 'false', type: 'text', name: tag.name,
      };
      return wrap(tag, `<label><span class="wpcf7-quiz-label">${escapeHtml(question)}</span> <input ${formatAttributes(attributes)} /></label>`
        + `<input type="hidden" name="_wpcf7_quiz_answer_${escapeHtml(tag.name)}" value="${hash}" />`);
    }
    case 'file': {
      if (!tag.name) return '';
      const attributes = {
        size: tag.sizeOption('40'), ...common(tag, controlClass(tag.type)), capture: tag.option('capture', '(user|environment)'),
        accept: acceptedFileTypes(tag).join(','), ...required, 'aria-invalid': 'false', type: 'file', name: tag.name,
      };
      return wrap(tag, `<input ${formatAttributes(attributes)} />`);
    }
    case 'hidden': {
      if (!tag.name) return '';
      // A honeypot field starts empty: people never fill it, robots that fill every field give themselves away.
      const value = tag.hasOption('honeypot') ? '' : (tag.defaultValues()[0] ?? tag.values[0] ?? '');
      const attributes = { class: tag.classOption(controlClass(tag.type)), id: tag.idOption(), value, type: 'hidden', name: tag.name };
      return `<input ${formatAttributes(attributes)} />`;
    }
    case 'submit': {
      const attributes = { ...common(tag, controlClass(tag.type, 'has-spinner')), type: 'submit', value: tag.values[0] || 'Send' };
      return `<input ${formatAttributes(attributes)} />`;
    }
    case 'count': {
      if (!tag.name) return '';
      const down = tag.hasOption('down');
      const attributes = { class: tag.classOption(`wpcf7-character-count${down ? ' down' : ' up'}`), id: tag.idOption(), 'data-target-name': tag.name };
      return `<span ${formatAttributes(attributes)}></span>`;
    }
    case 'response': return environment.response();
    default: return '';
  }
}

function renderSelect(tag: FormTag): string {
  if (!tag.name) return '';
  const multiple = tag.hasOption('multiple');
  let values = [...tag.values];
  let labels = [...tag.labels];
  if (tag.hasOption('include_blank') || values.length === 0) {
    values = ['', ...values];
    labels = [TEXTS.pleaseChoose, ...labels];
  } else if (tag.hasOption('first_as_label')) {
    values[0] = '';
  }
  const chosen = new Set(tag.defaultValues());
  const options = values.map((value, index) =>
    `<option ${formatAttributes({ value, selected: chosen.has(value) })}>${escapeHtml(labels[index] ?? value)}</option>`).join('');
  const size = tag.hasOption('size') ? (tag.option('size', 'int') || (multiple ? '4' : '1')) : null;
  const attributes = {
    ...common(tag, controlClass(tag.type)), autocomplete: tag.autocompleteOption(), ...(tag.required ? { 'aria-required': 'true' } : {}),
    'aria-invalid': 'false', size, multiple, name: `${tag.name}${multiple ? '[]' : ''}`,
  };
  return wrap(tag, `<select ${formatAttributes(attributes)}>${options}</select>`);
}

function renderChoices(tag: FormTag): string {
  if (!tag.name) return '';
  const exclusive = tag.basetype === 'checkbox' && tag.hasOption('exclusive');
  const multiple = tag.basetype === 'checkbox' && !exclusive;
  const freeText = tag.hasOption('free_text');
  const chosen = new Set(tag.defaultValues());
  let tabindex = tag.option('tabindex', 'signed_int');
  let items = '';
  tag.values.forEach((value, index) => {
    const label = tag.labels[index] ?? value;
    const input = `<input ${formatAttributes({ type: tag.basetype, name: `${tag.name}${multiple ? '[]' : ''}`, value, checked: chosen.has(value), tabindex })} />`;
    let item = tag.hasOption('label_first')
      ? `<span class="wpcf7-list-item-label">${escapeHtml(label)}</span>${input}`
      : `${input}<span class="wpcf7-list-item-label">${escapeHtml(label)}</span>`;
    if (tag.hasOption('use_label_element')) item = `<label>${item}</label>`;
    if (tabindex !== null && Number(tabindex) > 0) tabindex = String(Number(tabindex) + 1);
    let classes = 'wpcf7-list-item';
    if (index === 0) classes += ' first';
    if (index === tag.values.length - 1) {
      classes += ' last';
      if (freeText) {
        item += ` <input ${formatAttributes({ type: 'text', name: `_wpcf7_free_text_${tag.name}`, class: 'wpcf7-free-text', tabindex })} />`;
        classes += ' has-free-text';
      }
    }
    items += `<span class="${escapeHtml(classes)}">${item}</span>`;
  });
  const classes = `${controlClass(tag.type)}${exclusive ? ' wpcf7-exclusive-checkbox' : ''}`;
  return wrap(tag, `<span ${formatAttributes({ class: tag.classOption(classes), id: tag.idOption() })}>${items}</span>`);
}

function renderAcceptance(tag: FormTag): string {
  if (!tag.name) return '';
  let classes = controlClass(tag.type);
  if (tag.hasOption('invert')) classes += ' invert';
  if (tag.hasOption('optional')) classes += ' optional';
  const input = `<input ${formatAttributes({
    type: 'checkbox', name: tag.name, value: '1', tabindex: tag.option('tabindex', 'signed_int'), checked: tag.hasOption('default:on'),
    class: tag.classOption(), id: tag.idOption(), 'aria-invalid': 'false',
  })} />`;
  // The label is the form author's own markup, shown as written.
  const content = (tag.content !== '' ? tag.content : (tag.values[0] ?? '')).trim();
  let item = `<span class="wpcf7-list-item">${input}</span>`;
  if (content) {
    const inner = tag.hasOption('label_first')
      ? `<span class="wpcf7-list-item-label">${content}</span>${input}`
      : `${input}<span class="wpcf7-list-item-label">${content}</span>`;
    item = `<span class="wpcf7-list-item"><label>${inner}</label></span>`;
  }
  return wrap(tag, `<span ${formatAttributes({ class: classes.trim() })}>${item}</span>`);
}
