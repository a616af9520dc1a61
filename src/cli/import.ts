import { readFile } from 'node:fs/promises';
import type { Cms } from '../cms.js';
import { isCmsError } from '../core/errors.js';

/** What `quire serve --import FILE` did. */
export interface ImportSummary {
  slidersCreated: number;
  slidersUpdated: number;
  formsCreated: number;
  formsUpdated: number;
}

export class ImportError extends Error {}

/**
 * Reads a JSON document `{ "sliders": [...], "signupForms": [...] }` whose items are the bodies of
 * `POST /slider/sliders` and `POST /mailing/v1/forms`, and stores them through the in-process API. Importing the
 * same file again changes nothing new: a slider whose alias exists, or a form whose slug exists, is updated in
 * place, so a file fixed after a failed item can simply be imported again.
 */
export async function importFile(cms: Cms, path: string): Promise<ImportSummary> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new ImportError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    throw new ImportError(`${path} must hold a JSON object with "sliders" and/or "signupForms"`);
  }
  const { sliders = [], signupForms = [], ...unknown } = document as Record<string, unknown>;
  const extra = Object.keys(unknown);
  if (extra.length > 0) throw new ImportError(`${path}: unknown member "${extra[0]}" (expected "sliders", "signupForms")`);
  const sliderItems = listOf(sliders, 'sliders', path);
  const formItems = listOf(signupForms, 'signupForms', path);

  const summary: ImportSummary = { slidersCreated: 0, slidersUpdated: 0, formsCreated: 0, formsUpdated: 0 };
  const formsBySlug = new Map((await cms.mailing.listSignupForms()).map((form) => [form.slug, form.id]));
  for (const [index, item] of sliderItems.entries()) {
    const alias = (item as { alias?: unknown }).alias;
    const existing = typeof alias === 'string' ? await cms.sliders.get(alias) : null;
    await explained(`sliders[${index}]`, path, () => (existing ? cms.sliders.update(existing.id, item) : cms.sliders.create(item)));
    if (existing) summary.slidersUpdated += 1;
    else summary.slidersCreated += 1;
  }
  for (const [index, item] of formItems.entries()) {
    const slug = (item as { slug?: unknown }).slug;
    const existing = typeof slug === 'string' ? formsBySlug.get(slug) : undefined;
    await explained(`signupForms[${index}]`, path, () => (existing
      ? cms.mailing.updateSignupForm(existing, item as never)
      : cms.mailing.createSignupForm(item as never)));
    if (existing) summary.formsUpdated += 1;
    else summary.formsCreated += 1;
  }
  return summary;
}

function listOf(value: unknown, name: string, path: string): Record<string, unknown>[] {
  if (!Array.isArray(value) || value.some((item) => item === null || typeof item !== 'object' || Array.isArray(item))) {
    throw new ImportError(`${path}: "${name}" must be a list of objects`);
  }
  return value as Record<string, unknown>[];
}

async function explained<T>(where: string, path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isCmsError(error)) throw error;
    throw new ImportError(`${path}: ${where}: ${error.message} (${error.code})`);
  }
}
