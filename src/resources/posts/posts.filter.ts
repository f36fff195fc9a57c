import { queryFields } from '../../browse/fields.js';
import type { FilterSpec } from '../../filter/spec.js';
import { TAG_FIELDS } from '../tags/tags.fields.js';
import { USER_FIELDS } from '../users/users.fields.js';
import { POST_AUTHOR_COLUMNS, POST_FIELDS, POST_META_COLUMNS, POST_TAG_COLUMNS } from './posts.fields.js';

/** Posts and pages (`core/server/models/post.js`: filterRelations, filterExpansions). */
export const POSTS_FILTER: FilterSpec = {
  table: 'posts',
  fields: queryFields(POST_FIELDS),
  relations: {
    tags: {
      kind: 'manyToMany',
      table: 'tags',
      fields: queryFields(TAG_FIELDS),
      joinTable: 'posts_tags',
      joinFrom: 'post_id',
      joinTo: 'tag_id',
      joinFields: POST_TAG_COLUMNS,
    },
    authors: {
      kind: 'manyToMany',
      table: 'users',
      fields: queryFields(USER_FIELDS),
      joinTable: 'posts_authors',
      joinFrom: 'post_id',
      joinTo: 'author_id',
      joinFields: POST_AUTHOR_COLUMNS,
    },
    posts_meta: { kind: 'oneToOne', table: 'posts_meta', joinFrom: 'post_id', fields: { id: 'text', post_id: 'text', ...POST_META_COLUMNS } },
    // Ghost's filter plugin cannot compile one-to-many relations and drops such statements.
    post_revisions: { kind: 'ignored' },
  },
  expansions: [
    { key: 'primary_tag', replacement: 'tags.slug', expansion: 'posts_tags.sort_order:0+tags.visibility:public' },
    { key: 'primary_author', replacement: 'authors.slug', expansion: 'posts_authors.sort_order:0+authors.visibility:public' },
    { key: 'authors', replacement: 'authors.slug' },
    { key: 'author', replacement: 'authors.slug' },
    { key: 'tag', replacement: 'tags.slug' },
    { key: 'tags', replacement: 'tags.slug' },
    ...Object.keys(POST_META_COLUMNS).map((key) => ({ key, replacement: `posts_meta.${key}` })),
  ],
};
