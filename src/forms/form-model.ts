/**
 * A form with what is derived from it: its tags, its messages completed from the defaults, its settings, its
 * validation schema, and the mail-tag context its messages are filtered with.
 */
import type { Site } from '../core/site.js';
import type { MailTagContext, SubmissionView } from './mail-tags.js';
import { filterMessage } from './mail-tags.js';
import type { FormsRuntime } from './options.js';
import { completeMessages, isSettingOn } from './properties.js';
import type { ContactForm } from './record.js';
import { buildSchema, type SwvSchema } from './swv/index.js';
import type { FormTag } from './tags/form-tag.js';
import { Pipes } from './tags/pipes.js';
import { scanTags } from './tags/scan.js';

export interface FormModel {
  readonly form: ContactForm;
  readonly tags: readonly FormTag[];
  readonly messages: Readonly<Record<string, string>>;
  /** Whether an additional setting is `on`, `true` or `1`. */
  isOn(setting: string): boolean;
  /** Tags with a name, first of each name (the plugin's posted-data tags), optionally only of some features. */
  tagsNamed(name: string): FormTag[];
  /** The pipes of every tag with this name, merged. */
  pipesOf(name: string): Pipes;
}

export function modelOf(form: ContactForm): FormModel {
  const tags = scanTags(form.properties.form);
  const messages = completeMessages(form.properties.messages);
  const pipes = new Map<string, Pipes>();
  return {
    form,
    tags,
    messages,
    isOn: (setting) => isSettingOn(form.properties.additional_settings, setting),
    tagsNamed: (name) => tags.filter((tag) => tag.name === name),
    pipesOf(name) {
      let merged = pipes.get(name);
      if (!merged) {
        merged = Pipes.merge(tags.filter((tag) => tag.name === name && tag.pipes).map((tag) => tag.pipes!));
        pipes.set(name, merged);
      }
      return merged;
    },
  };
}

export function mailTagContext(model: FormModel, runtime: FormsRuntime, site: Site, submission: SubmissionView | null): MailTagContext {
  return {
    tags: model.tags,
    site: { title: site.name, description: site.description, url: site.home, adminEmail: runtime.adminEmail },
    siteTime: site,
    dateFormat: runtime.dateFormat,
    timeFormat: runtime.timeFormat,
    submission,
  };
}

/** A message of the form, filtered for display (mail tags replaced, HTML stripped). */
export function messageOf(model: FormModel, key: string, context: MailTagContext): string {
  return filterMessage(model.messages[key] ?? '', context);
}

export function schemaOf(model: FormModel, runtime: FormsRuntime, site: Site, context: MailTagContext): SwvSchema {
  // Every field's rules carry a message: each is filtered once, not once per rule.
  const messages = new Map<string, string>();
  const message = (key: string) => {
    let filtered = messages.get(key);
    if (filtered === undefined) messages.set(key, (filtered = messageOf(model, key, context)));
    return filtered;
  };
  return buildSchema(model.tags, model.form.locale, {
    message,
    text: (text) => filterMessage(text, context),
    now: runtime.deps.clock.now(),
    siteTime: site,
  });
}
