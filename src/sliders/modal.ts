/** The modal route's answer: the slider's cover colour and speed when its modal has a cover. */
import { valueAt } from './prepare.js';
import type { SliderRecord } from './record.js';

const DEFAULT_COVER_COLOUR = 'rgba(0,0,0,0.5)';
const DEFAULT_COVER_SPEED = 1;

export function modalAnswer(slider: SliderRecord, shownId: string): Record<string, unknown> {
  const settings = slider.settings;
  const covered = valueAt(settings, ['modal', 'cover'], true) === true;
  return {
    success: true,
    message: '',
    id: shownId,
    bg: covered ? valueAt(settings, ['modal', 'bg'], DEFAULT_COVER_COLOUR) : '',
    sp: covered ? valueAt(settings, ['modal', 'sp'], DEFAULT_COVER_SPEED) : '',
    addons: [],
    v6v7ids: false,
  };
}
