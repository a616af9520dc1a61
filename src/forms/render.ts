/**
 * A form's HTML for hosts that render it themselves: the plugin's wrapper, hidden fields, the template with
 * paragraphs added and every form-tag replaced by its control, and the response output.
 */
import { autop } from '../content/render/index.js';
import type { Site } from '../core/site.js';
import { TEXTS } from './defaults.js';
import type { FormModel } from './form-model.js';
import type { FormsRuntime } from './options.js';
import { quizPair } from './quiz.js';
import { renderTag, formatAttributes, type RenderEnvironment } from './tags/render.js';
import { findTags, tagOf } from './tags/scan.js';
import type { FormTag } from './tags/form-tag.js';
import { supports } from './tags/types.js';

export interface RenderOptions {
  /** The unit tag of this copy of the form on the page; default `wpcf7-f{id}-o1`. */
  unitTag?: string;
  /** The page address the form posts to (its fragment is replaced by the unit tag); default "" (the page itself). */
  action?: string;
  /** The id of the post the form sits in, sent back as `_wpcf7_container_post`. */
  containerPost?: number;
  htmlId?: string;
  htmlName?: string;
  htmlTitle?: string;
  htmlClass?: string;
  /** Whether the viewer may submit a `subscribers_only` form (is logged in). */
  loggedIn?: boolean;
}

export const PLUGIN_VERSION = '6.1.6';
const MARK = '\uE000';

export function renderForm(model: FormModel, runtime: FormsRuntime, site: Site, options: RenderOptions = {}): string {
  const { form } = model;
  if (model.isOn('subscribers_only') && !options.loggedIn) {
    return `<p class="wpcf7-subscribers-only">${TEXTS.subscribersOnly}</p>`;
  }
  const id = form.id ?? 0;
  const unitTag = (options.unitTag ?? `wpcf7-f${id}-o1`).replace(/[^A-Za-z0-9_-]/g, '');
  let responses = 0;
  const response = () => {
    responses += 1;
    return '<div class="wpcf7-response-output" aria-hidden="true"></div>';
  };
  const environment: RenderEnvironment = {
    now: runtime.deps.clock.now(),
    siteTime: site,
    quiz: (tag: FormTag) => quizPair(tag, runtime),
    response,
  };
  const elements = renderElements(form.properties.form, environment);
  const lang = form.locale.replace(/_/g, '-').replace(/^([a-z]+-[a-z]+)-.*$/i, '$1');
  const classes = ['wpcf7-form', 'init', ...(options.htmlClass ?? '').split(' '), ...(model.isOn('demo_mode') ? ['demo'] : [])]
    .map((name) => name.replace(/[^A-Za-z0-9_-]/g, '')).filter((name) => name !== '');
  const multipart = model.tags.some((tag) => supports(tag.type, 'file-uploading'));
  const action = `${(options.action ?? '').replace(/#.*$/, '')}#${unitTag}`;
  const hidden: Record<string, string | number> = {
    _wpcf7: id, _wpcf7_version: PLUGIN_VERSION, _wpcf7_locale: form.locale, _wpcf7_unit_tag: unitTag,
    _wpcf7_container_post: options.containerPost ?? 0, _wpcf7_posted_data_hash: '',
  };
  const hiddenFields = Object.entries(hidden)
    .map(([name, value]) => `<input ${formatAttributes({ type: 'hidden', name, value: String(value) })} />`).join('\n');
  const formAttributes = formatAttributes({
    action, method: 'post', class: [...new Set(classes)].join(' '),
    id: (options.htmlId ?? '').replace(/[^A-Za-z0-9:._-]/g, '') || null,
    name: (options.htmlName ?? '').replace(/[^A-Za-z0-9:._-]/g, '') || null,
    'aria-label': options.htmlTitle || 'Contact form', enctype: multipart ? 'multipart/form-data' : null, novalidate: true,
    'data-status': 'init',
  });
  return `\n<div ${formatAttributes({ class: 'wpcf7 no-js', id: unitTag, lang, dir: 'ltr', 'data-wpcf7-id': id })}>\n`
    + '<div class="screen-reader-response"><p role="status" aria-live="polite" aria-atomic="true"></p> <ul></ul></div>\n'
    + `<form ${formAttributes}>\n<fieldset class="hidden-fields-container">${hiddenFields}</fieldset>\n`
    + `${elements}${responses === 0 ? response() : ''}\n</form>\n</div>\n`;
}

/** The template with paragraphs added around text and each form-tag replaced by its HTML. */
function renderElements(template: string, environment: RenderEnvironment): string {
  const matches = findTags(template);
  const scanned: FormTag[] = [];
  const pieces: string[] = [];
  let text = '';
  let position = 0;
  for (const found of matches) {
    text += template.slice(position, found.start);
    position = found.end;
    if (found.escaped) {
      text += found.text.slice(1, -1);
      continue;
    }
    const tag = tagOf(found, scanned);
    if (!tag) {
      text += found.text;
      continue;
    }
    scanned.push(tag);
    pieces.push(`${found.before}${renderTag(tag, environment)}${found.after}`);
    text += `${MARK}${pieces.length - 1}${MARK}`;
  }
  text += template.slice(position);
  const withParagraphs = autop(text);
  return withParagraphs.replace(new RegExp(`${MARK}(\\d+)${MARK}`, 'g'), (_whole, index: string) => pieces[Number(index)] ?? '');
}
