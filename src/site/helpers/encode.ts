import { SafeString } from './env.js';

export function encode(value: unknown, options?: unknown) {
  return new SafeString(encodeURIComponent(String(value || options)));
}
