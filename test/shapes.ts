/**
 * Key lists several tests expect in Ghost's answers, written once here (from Ghost's answers, not from the
 * source, so a test still fails when the source drifts).
 */

/** The search and social fields of a post or tag, in Ghost's order. */
export const SEO_KEYS = ['og_image', 'og_title', 'og_description', 'twitter_image', 'twitter_title', 'twitter_description', 'meta_title', 'meta_description'];
