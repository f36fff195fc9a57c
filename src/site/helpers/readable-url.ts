import { SafeString } from './env.js';

export function readable_url(value: unknown) {
  return new SafeString(
    String(value ?? '')
      .replace(/^https?:\/\/(www\.)?/, '')
      .replace(/\/$/, ''),
  );
}
