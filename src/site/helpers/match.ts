import Handlebars from 'handlebars';
import { SafeString, type Options } from './env.js';

const empty = (value: unknown) => (!value && value !== 0) || (Array.isArray(value) && value.length === 0);

function compare(a: unknown, operator: unknown, b: unknown): boolean {
  const x = a as number;
  const y = b as number;
  switch (operator) {
    case '!=':
      return a !== b;
    case '<':
      return x < y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
    case '<=':
      return x <= y;
    case '~':
      return typeof a === 'string' && typeof b === 'string' && a.includes(b);
    case '~^':
      return typeof a === 'string' && typeof b === 'string' && a.startsWith(b);
    case '~$':
      return typeof a === 'string' && typeof b === 'string' && a.endsWith(b);
    default:
      return a === b;
  }
}

/** `{{#match a "=" b}}`, `{{#match a b}}`, `{{#match a}}`; inline it prints `true`/`false`. */
export function match(this: unknown, ...args: unknown[]) {
  const options = args.pop() as Options;
  if (args.length === 0) return undefined;
  const attrs = args.map((attr) => (attr instanceof Handlebars.SafeString ? attr.toString() : attr));
  let result: boolean;
  if (attrs.length === 1) {
    let value = attrs[0];
    if (typeof value === 'function') value = (value as () => unknown).call(this);
    result = !((!options.hash.includeZero && !value) || empty(value));
  } else if (attrs.length === 2) result = compare(attrs[0], '=', attrs[1]);
  else if (attrs.length === 3) result = compare(attrs[0], attrs[1], attrs[2]);
  else return undefined;
  if (typeof options.fn === 'function') return result ? options.fn(this) : options.inverse(this);
  return new SafeString(String(result));
}
