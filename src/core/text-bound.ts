/**
 * A text read outside the declared arguments (a route that declares none, an in-process API), bounded as an
 * argument's `maxLength` bounds it, with the same error: 400 `rest_invalid_param`, `rest_too_long` in `details`.
 * `path` names a member of the parameter (`messages[spam]`), as the message of an argument's own member does.
 */
import { validateValue } from './args/validate.js';
import { CmsError } from './errors.js';

export function checkTextLength(param: string, text: string, maxLength: number, path = param): void {
  const issue = validateValue(text, { type: 'string', maxLength }, path);
  if (issue) throw new CmsError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, { params: { [param]: issue.message }, details: { [param]: { ...issue } } });
}
