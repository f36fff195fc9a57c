import { type Options } from './env.js';

export function raw(this: unknown, options: Options) {
  return options.fn(this);
}
