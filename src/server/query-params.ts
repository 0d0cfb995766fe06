/**
 * Reading query parameters the way docs/design.md decides: array filters accept repeated keys
 * and comma lists alike; a single-valued parameter given twice is a 400 naming it.
 */
import { badParameter } from './http-error.js';

/** The one value of `name`, or undefined when absent. */
export function singleParam(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw badParameter(name, `Parameter ${name} was given ${values.length} times; give it once.`);
  return values[0];
}

/** Every value of `name`, from repeated keys and comma lists; empty items are dropped. */
export function listParam(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
