// The data the browse suite runs on, as a Ghost 5 JSON export (what `POST /ghost/api/admin/db/` imports).
// record.mjs imports it into the reference Ghost, then snapshots the rows Ghost stored (ids, html,
// plaintext, timestamps) into test/fixtures/browse/seed.json, which the suite seeds into our database.
// Chosen to exercise filters: case and accents in titles and names, `%`/`_`/quotes/backslashes, several
// tags and authors per post in different orders, an internal tag first, drafts, a scheduled post, pages,
// posts with and without posts_meta, tags and users without published posts.

import { lexicalDocument, lexicalParagraph } from '../fixtures/lexical.mjs';

const day = (n) => new Date(Date.UTC(2024, 0, 1, 9, 0, 0) + n * 86_400_000).toISOString();
const oid = (prefix, n) => `${prefix}${String(n).padStart(24 - prefix.length, '0')}`;

const lexical = (text) => lexicalDocument(lexicalParagraph(text));

const roles = [
  { id: oid('aa', 1), name: 'Administrator', description: 'Administrators' },
  { id: oid('aa', 2), name: 'Editor', description: 'Editors' },
  { id: oid('aa', 3), name: 'Author', description: 'Authors' },
  { id: oid('aa', 4), name: 'Contributor', description: 'Contributors' },
];

const userDefs = [
  ['alice', 'Alice Author', 'Author', { bio: 'Writes about travel', location: 'Lisbon', website: 'https://alice.example' }],
  ['bob', 'bob editor', 'Editor', { bio: 'Edits things', location: null }],
  ['carol', 'Carol Contributor', 'Contributor', { location: 'Berlin' }],
  ['dave', 'Dave Admin', 'Administrator', { bio: null }],
  ['erin', 'Érin Ünicode', 'Author', { location: 'Zürich' }],
];
const users = userDefs.map(([slug, name, , extra], i) => ({
  id: oid('bb', i + 1),
  name,
  slug,
  email: `${slug}@example.com`,
  password: 'not-a-real-hash-' + slug,
  profile_image: i % 2 ? `https://images.example/${slug}.png` : null,
  cover_image: null,
  bio: null,
  website: null,
  location: null,
  status: 'active',
  visibility: 'public',
  meta_title: null,
  meta_description: null,
  created_at: day(-100 + i),
  created_by: '1',
  updated_at: day(-50 + i),
  updated_by: '1',
  ...extra,
}));
const roles_users = userDefs.map(([, , role], i) => ({ id: oid('bc', i + 1), role_id: roles.find((r) => r.name === role).id, user_id: users[i].id }));
const userId = (slug) => users.find((u) => u.slug === slug).id;

const tagDefs = [
  ['news', 'News', {}],
  ['tech', 'Tech', { description: 'All about tech' }],
  ['travel', 'Travel', { feature_image: 'https://images.example/travel.jpg', description: 'Trips' }],
  ['apple', 'apple', {}],
  ['zebra', 'Zebra', { accent_color: '#000000' }],
  ['hash-internal', '#internal', { visibility: 'internal' }],
  ['unused', 'Unused', { description: 'No posts here' }],
  ['cafe', 'Café', { description: 'Crème brûlée' }],
  ['percent-100', 'Percent 100%', {}],
  ['under-score', 'under_score', {}],
  ['draft-only', 'Draft Only', {}],
  ['page-tag', 'Page Tag', { meta_title: 'Tag meta' }],
];
const tags = tagDefs.map(([slug, name, extra], i) => ({
  id: oid('cc', i + 1),
  name,
  slug,
  description: null,
  feature_image: null,
  visibility: 'public',
  meta_title: null,
  meta_description: null,
  created_at: day(-90 + i * 2),
  created_by: '1',
  updated_at: day(-40 + i),
  updated_by: '1',
  ...extra,
}));
const tagId = (slug) => tags.find((t) => t.slug === slug).id;

// [slug, title, status, type, publishedDay, tags, authors, extra, meta]
const postDefs = [
  [
    'hello-world',
    'Hello World',
    'published',
    'post',
    10,
    ['news', 'tech'],
    ['alice'],
    { featured: true, feature_image: 'https://images.example/hello.jpg' },
    { meta_title: 'Meta Hello' },
  ],
  ['hello-again', 'hello again', 'published', 'post', 12, ['tech'], ['bob', 'alice'], {}, { meta_description: 'Again and again' }],
  ['hello-caps', 'HELLO caps', 'published', 'post', 14, ['travel', 'news'], ['alice'], { custom_excerpt: 'Shouting hello' }, { email_subject: 'Subject CAPS' }],
  ['unicode', 'Ünïcode Ärger', 'published', 'post', 16, ['cafe'], ['carol'], {}, null],
  ['pure', '100% Pure', 'published', 'post', 18, ['percent-100'], ['bob'], {}, null],
  ['snake', 'snake_case title', 'published', 'post', 20, ['under-score', 'tech'], ['carol', 'bob'], {}, null],
  ['quoted', "It's quoted", 'published', 'post', 22, ['news'], ['alice'], { custom_excerpt: 'A "quoted" excerpt' }, { og_title: 'OG quoted' }],
  ['backslash', 'Back\\slash post', 'published', 'post', 24, [], ['bob'], {}, null],
  ['internal-first', 'Internal first', 'published', 'post', 26, ['hash-internal', 'news'], ['carol'], {}, null],
  ['members-only', 'Members only', 'published', 'post', 28, ['tech'], ['alice'], { visibility: 'members' }, null],
  ['paid-post', 'Paid post', 'published', 'post', 30, ['travel'], ['bob'], { visibility: 'paid', featured: true }, { meta_title: 'Paid meta' }],
  ['draft-one', 'Draft one', 'draft', 'post', null, ['draft-only', 'news'], ['carol'], {}, null],
  ['draft-two', 'Draft two', 'draft', 'post', null, [], ['erin'], {}, null],
  ['scheduled', 'Scheduled soon', 'scheduled', 'post', 2400, ['news'], ['alice'], {}, null],
  ['old-news', 'Old news', 'published', 'post', -1200, ['news', 'apple', 'zebra'], ['alice', 'bob'], {}, null],
  ['zebra-crossing', 'Zebra crossing', 'published', 'post', 32, ['zebra'], ['carol'], { feature_image: 'https://images.example/zebra.jpg' }, null],
  ['apple-pie', 'apple pie', 'published', 'post', 34, ['apple', 'travel'], ['alice'], {}, { meta_title: 'apple meta' }],
  ['no-tags', 'No tags', 'published', 'post', 36, [], ['bob'], {}, null],
  ['multi-author', 'Multi author', 'published', 'post', 38, ['tech', 'news', 'travel'], ['carol', 'bob', 'alice'], { custom_excerpt: 'Three authors' }, null],
  ['featured-two', 'Featured two', 'published', 'post', 40, ['travel'], ['alice'], { featured: true }, null],
  ['about-us', 'About us', 'published', 'page', 5, ['page-tag'], ['alice'], {}, { meta_title: 'About meta' }],
  ['contact', 'Contact', 'published', 'page', 6, [], ['bob'], { featured: true }, null],
  ['draft-page', 'Draft page', 'draft', 'page', null, ['news'], ['carol'], {}, null],
];

const posts = [];
const posts_tags = [];
const posts_authors = [];
const posts_meta = [];
postDefs.forEach(([slug, title, status, type, publishedDay, tagSlugs, authorSlugs, extra, meta], i) => {
  const id = oid('dd', i + 1);
  const body = `${title}. Body text number ${i + 1} about ${tagSlugs.join(' and ') || 'nothing'}.`;
  posts.push({
    id,
    uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
    title,
    slug,
    lexical: lexical(body),
    mobiledoc: null,
    feature_image: null,
    featured: false,
    type,
    status,
    visibility: 'public',
    email_recipient_filter: 'all',
    locale: null,
    created_at: day(-30 + i),
    created_by: userId(authorSlugs[0]),
    updated_at: day(-20 + i * 3),
    updated_by: userId(authorSlugs[0]),
    published_at: publishedDay === null ? null : day(publishedDay),
    published_by: publishedDay === null ? null : userId(authorSlugs[0]),
    custom_excerpt: null,
    codeinjection_head: null,
    codeinjection_foot: null,
    custom_template: null,
    canonical_url: null,
    show_title_and_feature_image: true,
    ...extra,
  });
  tagSlugs.forEach((t, order) => posts_tags.push({ id: oid('de', posts_tags.length + 1), post_id: id, tag_id: tagId(t), sort_order: order }));
  authorSlugs.forEach((a, order) => posts_authors.push({ id: oid('df', posts_authors.length + 1), post_id: id, author_id: userId(a), sort_order: order }));
  if (meta) posts_meta.push({ id: oid('ee', posts_meta.length + 1), post_id: id, email_only: false, ...meta });
});

export const dataset = {
  db: [
    {
      meta: { exported_on: Date.UTC(2024, 5, 1), version: '5.130.6' },
      data: { roles, users, roles_users, tags, posts, posts_tags, posts_authors, posts_meta },
    },
  ],
};
