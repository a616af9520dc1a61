/**
 * The stored shapes of sliders and their slides. A slide's slider and position are kept under the field names
 * the SQL stores index (`parent`, `menu_order`), so "the slides of one slider, in order" is an index range.
 */
import type { StoredRecord } from '../ports/storage.js';

export const SLIDERS_COLLECTION = 'sliders';
export const SLIDES_COLLECTION = 'slides';

export interface SliderRecord extends StoredRecord {
  /** Unique; letters, digits, `_` and `-`. */
  alias: string;
  title: string;
  /** The SR7 slider settings, stored as given. */
  settings: Record<string, unknown>;
  /** Bumped by every write to the slider or its slides; prepared reads are cached under it. */
  revision: number;
}

export interface SlideRecord extends StoredRecord {
  /** The slider's id. */
  parent: number;
  /** Position among the slider's slides, from 0. */
  menu_order: number;
  /** The slider's static slide (`slide.global` was true when it was written). */
  static: boolean;
  /** `published` or `unpublished`, from `slide.publish.state`. */
  state: string;
  /** `slide.publish.from` and `slide.publish.to` as text, `''` when unset. */
  publish_from: string;
  publish_to: string;
  /** The SR7 slide settings, stored as given. */
  slide: Record<string, unknown>;
  /** The slide's layers, stored as given: a list, or a map keyed by layer id. */
  layers: unknown[] | Record<string, unknown>;
}

export function isSliderRecord(record: StoredRecord | null): record is SliderRecord {
  return record !== null && typeof record.alias === 'string' && typeof record.title === 'string';
}

export function isSlideRecord(record: StoredRecord | null): record is SlideRecord {
  return record !== null && typeof record.parent === 'number' && typeof record.menu_order === 'number';
}
