import { createRequire } from 'node:module';
import { SafeString, type Options } from './env.js';

const require = createRequire(import.meta.url);
const { readingTime } = require('@tryghost/helpers') as { readingTime: (post: unknown, options: unknown) => string };

/** `{{reading_time minute="1 min" minutes="% mins"}}`, computed as Ghost's `@tryghost/helpers` does. */
export function reading_time(this: Record<string, unknown>, options: Options) {
  const isPost = 'html' in this && 'title' in this && 'slug' in this;
  if (!isPost) return null;
  return new SafeString(readingTime(this, options?.hash ?? {}));
}
