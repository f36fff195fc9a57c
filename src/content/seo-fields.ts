/** The search and social fields posts and tags share (Ghost's `posts_meta` and `tags` columns), in Ghost's order. */
export const SEO_FIELDS = ['og_image', 'og_title', 'og_description', 'twitter_image', 'twitter_title', 'twitter_description', 'meta_title', 'meta_description'] as const;
