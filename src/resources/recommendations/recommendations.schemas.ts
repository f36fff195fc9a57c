import { errors } from '../../errors.js';
import type { BodySpec } from '../../http/parse-body.js';

/**
 * Recommendation bodies are read as Ghost's recommendations service reads them (its `UnsafeData`): each
 * field checked where it is used, failures named by their path (`recommendations.0.url must be a valid URL`).
 */
export interface RecommendationInput {
  title?: string;
  url?: string;
  one_click_subscribe?: boolean;
  description?: string | null;
  excerpt?: string | null;
  featured_image?: string | null;
  favicon?: string | null;
}

const invalid = (message: string) => errors.validation({ message });

function itemOf(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null) throw invalid('data must be an object');
  if (!Object.hasOwn(body, 'recommendations')) throw invalid('recommendations is required');
  const list = (body as Record<string, unknown>).recommendations;
  if (!Array.isArray(list)) throw invalid('recommendations must be an array');
  if (list.length < 1) throw invalid('recommendations must be an array of length 1');
  const item = list[0] as unknown;
  if (typeof item !== 'object' || item === null) throw invalid('recommendations.0 must be an object');
  return item as Record<string, unknown>;
}

const field = (key: string) => `recommendations.0.${key}`;

function string(item: Record<string, unknown>, key: string): string {
  if (typeof item[key] !== 'string') throw invalid(`${field(key)} must be a string`);
  return item[key];
}

/** An http(s) URL, as `new URL` normalises it. */
export function httpUrl(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${name} must be a valid URL`);
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw invalid(`${name} must be a valid URL`);
  return url.toString();
}

function read(item: Record<string, unknown>, required: boolean): RecommendationInput {
  const has = (key: string) => Object.hasOwn(item, key);
  const need = (key: string) => {
    if (required && !has(key)) throw invalid(`${field(key)} is required`);
    return has(key);
  };
  const input: RecommendationInput = {};
  if (need('title')) input.title = string(item, 'title');
  if (need('url')) input.url = httpUrl(item.url, field('url'));
  if (has('one_click_subscribe')) {
    if (typeof item.one_click_subscribe !== 'boolean') throw invalid(`${field('one_click_subscribe')} must be a boolean`);
    input.one_click_subscribe = item.one_click_subscribe;
  }
  for (const key of ['description', 'excerpt'] as const) if (has(key)) input[key] = item[key] === null ? null : string(item, key);
  for (const key of ['featured_image', 'favicon'] as const) if (has(key)) input[key] = item[key] === null ? null : httpUrl(item[key], field(key));
  return input;
}

/** A new recommendation: title and url are required. */
export type NewRecommendation = RecommendationInput & { title: string; url: string };

export const RECOMMENDATION_ADD: BodySpec<NewRecommendation> = { read: (body) => read(itemOf(body), true) as NewRecommendation };
export const RECOMMENDATION_EDIT: BodySpec<RecommendationInput> = { read: (body) => read(itemOf(body), false) };
/** `POST /recommendations/check/`: only the url. */
export const RECOMMENDATION_CHECK: BodySpec<string> = { read: (body) => httpUrl(itemOf(body).url, field('url')) };
