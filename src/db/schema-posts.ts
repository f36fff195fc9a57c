/** Row types of the posts migration (0002). */
export interface PostTables {
  tags: TagRow;
  posts: PostRow;
  posts_meta: PostMetaRow;
  posts_tags: PostTagRow;
  posts_authors: PostAuthorRow;
  post_revisions: PostRevisionRow;
}

export interface TagRow {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  feature_image: string | null;
  parent_id: string | null;
  visibility: string;
  og_image: string | null;
  og_title: string | null;
  og_description: string | null;
  twitter_image: string | null;
  twitter_title: string | null;
  twitter_description: string | null;
  meta_title: string | null;
  meta_description: string | null;
  codeinjection_head: string | null;
  codeinjection_foot: string | null;
  canonical_url: string | null;
  accent_color: string | null;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
}

export interface PostRow {
  id: string;
  uuid: string;
  title: string;
  slug: string;
  mobiledoc: string | null;
  lexical: string | null;
  html: string | null;
  comment_id: string | null;
  plaintext: string | null;
  feature_image: string | null;
  featured: boolean;
  type: 'post' | 'page';
  status: string;
  locale: string | null;
  visibility: string;
  email_recipient_filter: string;
  created_at: Date;
  created_by: string;
  updated_at: Date | null;
  updated_by: string | null;
  published_at: Date | null;
  published_by: string | null;
  custom_excerpt: string | null;
  codeinjection_head: string | null;
  codeinjection_foot: string | null;
  custom_template: string | null;
  canonical_url: string | null;
  newsletter_id: string | null;
  show_title_and_feature_image: boolean;
  /** Minutes, derived from html and feature_image at write time (migration 0004); null on older rows. */
  reading_time: number | null;
}

export interface PostMetaRow {
  id: string;
  post_id: string;
  og_image: string | null;
  og_title: string | null;
  og_description: string | null;
  twitter_image: string | null;
  twitter_title: string | null;
  twitter_description: string | null;
  meta_title: string | null;
  meta_description: string | null;
  email_subject: string | null;
  frontmatter: string | null;
  feature_image_alt: string | null;
  feature_image_caption: string | null;
  email_only: boolean;
}

export interface PostTagRow {
  id: string;
  post_id: string;
  tag_id: string;
  sort_order: number;
}

export interface PostAuthorRow {
  id: string;
  post_id: string;
  author_id: string;
  sort_order: number;
}

export interface PostRevisionRow {
  id: string;
  post_id: string;
  lexical: string | null;
  created_at_ts: number;
  created_at: Date;
  author_id: string | null;
  title: string | null;
  post_status: string | null;
  reason: string | null;
  feature_image: string | null;
  feature_image_alt: string | null;
  feature_image_caption: string | null;
  custom_excerpt: string | null;
}
