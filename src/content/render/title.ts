/** `title.rendered`: the stored title with the display prefixes and display filters applied. */
import { capitalizeBrandInTitle, convertChars } from './characters.js';
import { phpTrim } from '../../format/php.js';
import { texturize } from './texturize.js';

export interface TitleOptions {
  status: string;
  hasPassword: boolean;
  /**
   * Whether a password-protected title gets "Protected: ". The REST representation leaves it off (the
   * `protected` flags carry that); oEmbed responses use it.
   */
  protectedPrefix?: boolean;
}

export function renderTitle(raw: string, options: TitleOptions): string {
  let title = raw;
  // A password takes precedence over the private status, even when the protected prefix is suppressed.
  if (options.hasPassword) {
    if (options.protectedPrefix) title = `Protected: ${title}`;
  } else if (options.status === 'private') {
    title = `Private: ${title}`;
  }
  return capitalizeBrandInTitle(phpTrim(convertChars(texturize(title))));
}
