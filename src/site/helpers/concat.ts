import { SafeString, type Options } from './env.js';

export function concat(...args: unknown[]) {
  const options = args.pop() as Options;
  return new SafeString(args.join(String(options.hash.separator ?? '')));
}
