import type { TagRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import { fromStorageUrl, htmlFromStorage } from '../../content/ghost-url.js';

export interface TagExtras {
  url: string;
  count?: { posts: number };
}

const url = (value: string | null, siteUrl: string) => (value ? fromStorageUrl(value, siteUrl) : value);
const html = (value: string | null, siteUrl: string) => (value ? htmlFromStorage(value, siteUrl) : value);

/** What both APIs show alike before the meta fields: the image, visibility and social cards (URLs absolute). */
const imageAndSocial = (tag: TagRow, siteUrl: string) => ({
  feature_image: url(tag.feature_image, siteUrl),
  visibility: tag.visibility,
  og_image: url(tag.og_image, siteUrl),
  og_title: tag.og_title,
  og_description: tag.og_description,
  twitter_image: url(tag.twitter_image, siteUrl),
  twitter_title: tag.twitter_title,
  twitter_description: tag.twitter_description,
});

/** What both APIs show alike after the meta fields. */
const injectionAndLinks = (tag: TagRow, siteUrl: string) => ({
  codeinjection_head: html(tag.codeinjection_head, siteUrl),
  codeinjection_foot: html(tag.codeinjection_foot, siteUrl),
  canonical_url: url(tag.canonical_url, siteUrl),
  accent_color: tag.accent_color,
});

/** The Admin API tag (also embedded in admin posts), in Ghost's key order. `parent_id` is never shown. */
export function presentAdminTag(tag: TagRow, siteUrl: string, extras: TagExtras) {
  return {
    id: tag.id,
    name: tag.name,
    slug: tag.slug,
    description: tag.description,
    ...imageAndSocial(tag, siteUrl),
    meta_title: tag.meta_title,
    meta_description: tag.meta_description,
    ...injectionAndLinks(tag, siteUrl),
    created_at: isoDate(tag.created_at),
    updated_at: isoDate(tag.updated_at),
    ...(extras.count ? { count: extras.count } : {}),
    url: extras.url,
  };
}

/** The Content API tag: no timestamps, and empty strings in a few text fields shown as null. */
export function presentContentTag(tag: TagRow, siteUrl: string, extras: TagExtras) {
  return {
    id: tag.id,
    name: tag.name,
    slug: tag.slug,
    description: tag.description || null,
    ...imageAndSocial(tag, siteUrl),
    meta_title: tag.meta_title || null,
    meta_description: tag.meta_description || null,
    ...injectionAndLinks(tag, siteUrl),
    ...(extras.count ? { count: extras.count } : {}),
    url: extras.url,
  };
}
