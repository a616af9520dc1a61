/** Arguments of `POST /settings`: every setting, validated against its schema (a JSON null resets it). */
import { arg, type ArgSpec } from '../core/args/define.js';
import { SETTINGS } from './definitions.js';

export function updateArgs(): Record<string, ArgSpec> {
  const result: Record<string, ArgSpec> = {};
  for (const setting of SETTINGS) {
    const { type, description, default: _default, ...rest } = setting.schema;
    result[setting.name] = arg({ description, type, ...rest }, { keepNull: true });
  }
  return result;
}
