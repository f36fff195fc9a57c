/**
 * Key lists and values several tests expect in Ghost's answers, written once here (from Ghost's answers, not from the
 * source, so a test still fails when the source drifts).
 */

/** The search and social fields of a post or tag, in Ghost's order. */
export const SEO_KEYS = ['og_image', 'og_title', 'og_description', 'twitter_image', 'twitter_title', 'twitter_description', 'meta_title', 'meta_description'];

/** A staff user's public profile fields, in Ghost's order (between `slug`/`email` and the rest, in users and authors). */
export const PROFILE_KEYS = [
  'profile_image',
  'cover_image',
  'bio',
  'website',
  'location',
  'facebook',
  'twitter',
  'threads',
  'bluesky',
  'mastodon',
  'tiktok',
  'youtube',
  'instagram',
  'linkedin',
];

/** A member's `attribution` when the test site's integration added it through the Admin API. */
export const TEST_INTEGRATION_ATTRIBUTION = {
  id: null,
  type: null,
  url: null,
  title: null,
  referrer_source: 'Integration: Test Integration',
  referrer_medium: 'Admin API',
  referrer_url: null,
};
