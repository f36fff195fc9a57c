// The browse cases: one request each, recorded against the reference Ghost by record.mjs and replayed
// against Quire by browse.test.ts on every engine. `q` is the raw query string (already URL-encoded where
// needed). `deviation` marks a deliberate difference: `why` says it, `expect` is what Quire answers instead
// (merged over Ghost's recorded answer).

const enc = (s) => encodeURIComponent(s);
const f = (filter, rest = '') => `filter=${enc(filter)}${rest ? `&${rest}` : ''}`;
const all = 'limit=all';

const cases = [];
let group = '';
function add(api, resource, q, extra = {}) {
  cases.push({ name: `${group} ${api} ${resource}?${decodeURIComponent(q)}`, api, resource, q, ...extra });
}

const page = (page, limit, total) => {
  const pages = limit === 'all' ? 1 : Math.max(1, Math.ceil(total / limit));
  return { page, limit, pages, total, next: pages > 1 && page !== pages ? page + 1 : null, prev: pages > 1 && page !== 1 ? page - 1 : null };
};
const rows = (slugs, limit = 'all') => ({ slugs, pagination: page(1, limit, slugs.length) });

/** Ghost counts Content tags/authors without the "has published posts" condition: its total and pages overcount. */
const hasPostsTotal = (pagination) => ({
  why: 'Ghost counts Content API tags/authors before applying "has published posts"; Quire counts the rows it returns.',
  expect: { pagination },
});
/** SQLite lower() folds ASCII only, so Ghost never matches a non-ASCII capital with `~`. */
const unicodeFold = {
  why: 'Quire folds case with Unicode rules on every engine; Ghost on SQLite folds ASCII only.',
  expect: rows(['unicode']),
};
/** Ghost ignores a group wrapped in two pairs of parentheses (posts add one pair themselves). */
const doubleParens = {
  why: 'Ghost drops a parenthesised group nested in parentheses; Quire applies it.',
  expect: rows(['featured-two', 'paid-post', 'hello-world']),
};
/** Ghost cannot sort Content posts by a posts_meta column (the relation is not joined there). */
const metaOrder = {
  why: 'Ghost answers 400 when ordering Content API posts by a posts_meta column; Quire joins posts_meta.',
  expect: {
    status: 200,
    error: undefined,
    ...rows([
      'apple-pie',
      'paid-post',
      'hello-world',
      'pure',
      'backslash',
      'featured-two',
      'hello-caps',
      'internal-first',
      'quoted',
      'members-only',
      'multi-author',
      'no-tags',
      'old-news',
      'zebra-crossing',
      'hello-again',
      'snake',
      'unicode',
    ]),
  },
};
/** Ghost binds the RegExp object itself for `~` on a relation column and matches nothing. */
const relationContains = (slugs) => ({
  why: 'Ghost matches nothing for `~` on a relation column (tags.name:~…, posts_meta); Quire compares as for any column.',
  expect: rows(slugs),
});

// ---- Content API posts: filters -------------------------------------------------------------------
group = 'filter';
for (const filter of [
  'featured:true',
  'featured:false',
  'featured:1',
  'featured:-true',
  'visibility:public',
  'visibility:-public',
  'visibility:[members,paid]',
  'tag:news',
  'tags:news',
  'tag:[news,tech]',
  'tag:-news',
  'tag:-[news,tech]',
  'tag:news+tag:tech',
  'tag:news,tag:tech',
  'tags.slug:news',
  'tags.name:News',
  'tags.name:news',
  'tags.visibility:internal',
  'tags.slug:travel+tags.description:Trips',
  'tags.slug:news+tags.description:Trips',
  'primary_tag:news',
  'primary_tag:hash-internal',
  'primary_tag:-news',
  'primary_tag:[news,travel]',
  'author:alice',
  'authors:bob',
  'author:[alice,bob]',
  'author:alice+author:bob',
  'author:-alice',
  'primary_author:bob',
  'primary_author:-bob',
  "authors.name:'bob editor'",
  'authors.location:Lisbon',
  'authors.location:null',
  'authors.slug:-[alice,bob]',
  "title:'Hello World'",
  "title:'hello world'",
  "title:~'hello'",
  "title:~'HELLO'",
  "title:~^'hel'",
  "title:~$'post'",
  "title:-~'hello'",
  "title:~'100%'",
  "title:~'_'",
  "title:~'%'",
  "title:~'it\\'s'",
  "title:~'k\\s'",
  'custom_excerpt:null',
  'custom_excerpt:-null',
  'feature_image:-null',
  'feature_image:null+featured:true',
  "published_at:>'2024-01-20'",
  'published_at:<=2024-01-15',
  "published_at:>='2024-02-06 09:00:00'",
  'published_at:>now-100y',
  'published_at:>now+1d',
  'published_at:<2024-01-01+published_at:>2019-01-01',
  "meta_title:'Meta Hello'",
  'meta_title:-null',
  "posts_meta.meta_title:'Paid meta'",
  'email_subject:-null',
  "og_title:'OG quoted'",
  'status:draft',
  'status:-draft,featured:true',
  'type:page',
  '(featured:true,tag:apple)+author:bob',
  'featured:true,tag:apple+author:bob',
  'featured:true+(tag:travel,tag:news)',
  'authors.password:x',
  'authors.email:alice@example.com',
  'slug:hello-world,slug:pure',
  'slug:-[hello-world,pure]+published_at:>2024-02-01',
  `custom_excerpt:~'\\"quoted\\"'`,
  'featured:true+visibility:public',
  'tag:zebra+primary_tag:-zebra',
  'tag:[apple,zebra]+tag:-news',
  'id:-null+featured:true',
  'posts.featured:true',
])
  add('content', 'posts', f(filter, all));
add('content', 'posts', f("title:~'ärger'", all), { deviation: unicodeFold });
add('content', 'posts', f("title:~'ÄRGER'", all), { deviation: unicodeFold });
add('content', 'posts', f('((featured:true))', all), { deviation: doubleParens });
add('content', 'posts', f("tags.name:~'app'", all), { deviation: relationContains(['apple-pie', 'old-news']) });
add('content', 'posts', f("meta_description:~'again'", all), { deviation: relationContains(['hello-again']) });

// ---- Syntax and column errors ------------------------------------------------------------------------
group = 'error';
for (const filter of [
  'tag:a',
  'title:Hello World',
  "title:'unterminated",
  'tag:[ab,c]',
  '+',
  'featured:',
  '(featured:true',
  'featured:true)',
  'title:~hello',
  'featured:true++featured:false',
  ' ',
  'featured:true,',
  'tag:[]',
])
  add('content', 'posts', f(filter));
for (const filter of ['nope:1', 'tags.nope:1', 'posts.nope:1', 'other.slug:xx', 'authors.roles:xx']) add('content', 'posts', f(filter));
add('admin', 'posts', f('nope:true'));
add('content', 'tags', f('posts.title:xx'));
add('admin', 'users', f('nope:xx'));
add('content', 'tags', f('slug:a'));
add('content', 'tags', f('slug:ab+'));

// ---- Admin API posts --------------------------------------------------------------------------------
group = 'admin';
for (const filter of [
  'status:draft',
  'status:[draft,scheduled]',
  'status:-published',
  'featured:true',
  "title:~'draft'",
  'published_at:null',
  "title:-'status:x'",
  "updated_at:>'2024-01-20'",
  "meta_title:'Meta Hello'",
  'visibility:paid',
  'author:carol',
  'tag:news+status:draft',
  'authors.email:alice@example.com',
  'tag:[news,tech]',
  'author:[alice,bob]',
  'tag:-news+status:-published',
])
  add('admin', 'posts', f(filter, all));
add('admin', 'posts', all);
add('admin', 'posts', 'limit=5&page=2');
add('admin', 'posts', 'limit=5&page=4');

// ---- Pages ------------------------------------------------------------------------------------------
group = 'pages';
add('content', 'pages', '');
add('admin', 'pages', '');
add('content', 'pages', f('tag:page-tag'));
add('content', 'pages', f('featured:true'));
add('admin', 'pages', f('status:draft'));
add('admin', 'pages', 'order=title%20desc');

// ---- Order ------------------------------------------------------------------------------------------
group = 'order';
for (const order of [
  'title asc',
  'title desc',
  'published_at asc',
  'featured desc, title asc',
  'TITLE DESC',
  'title',
  'nope asc',
  'nope asc, slug desc',
  'le asc',
  'created_at desc',
  'updated_at asc,title asc',
  'slug desc, title asc, slug asc',
  ' ',
  'id desc',
  'title asc,featured desc',
])
  add('content', 'posts', `order=${enc(order)}&${all}`);
add('content', 'posts', `order=${enc('featured desc')}&limit=all&fields=featured`);
add('admin', 'posts', `order=${enc('published_at asc, title asc')}&${all}`);
add('admin', 'posts', `order=${enc('status asc, title desc')}&${all}`);
add('admin', 'posts', `order=${enc('meta_title desc, title asc')}&${all}`);
add('content', 'posts', `order=${enc('meta_title desc, title asc')}&${all}`, { deviation: metaOrder });
add('content', 'posts', f('slug:[quoted,pure,hello-world]'));
add('content', 'posts', f('slug:[quoted,pure,hello-world]+featured:false'));
add('content', 'posts', f('slug:[quoted,pure,hello-world]', `order=${enc('title asc')}`));
for (const order of ['', '%3Bdrop', 'name%3Bdrop%20table']) add('content', 'tags', `order=${order}`);

// ---- Pagination -------------------------------------------------------------------------------------
group = 'page';
for (const q of [
  'limit=0',
  'limit=abc',
  'limit=-1',
  'limit=3',
  'limit=3&page=2',
  'limit=3&page=6',
  'limit=3&page=7',
  'limit=2&page=99',
  'page=abc',
  'page=0',
  'page=-1',
  'limit=1.5',
  'page=1.5',
  'limit=5&limit=6',
  'limit=ALL',
  'limit=10abc',
  'limit=xall',
  'limit=',
  'page=',
  'limit=all&page=2',
  'limit=17',
  'limit=16&page=2',
])
  add('content', 'posts', q);

// ---- Tags -------------------------------------------------------------------------------------------
group = 'tags';
for (const q of [
  '',
  f('visibility:public'),
  f('visibility:internal'),
  f('slug:[tech,news,zebra]'),
  f("name:~'a'"),
  f("name:~^'t'"),
  f('description:-null'),
  f('feature_image:-null'),
  'order=name%20desc',
  'order=slug%20asc',
  'order=created_at%20desc',
  'include=count.posts',
  `include=count.posts&order=${enc('count.posts desc, name asc')}`,
  f('name:Zebra'),
  f('name:zebra'),
  'fields=name,slug',
  'fields=name,url',
  'fields=name,nope,URL',
  f("name:~'%'"),
  f("name:~'_'"),
  f("description:~'brûlée'"),
  f('slug:-[news,tech]'),
  `order=${enc('posts desc, name asc')}&include=count.posts`,
])
  add('content', 'tags', q + (q.includes('limit') ? '' : `${q ? '&' : ''}${all}`));
add('content', 'tags', 'limit=3&page=2', { deviation: hasPostsTotal(page(2, 3, 11)) });
add('content', 'tags', 'limit=5', { deviation: hasPostsTotal(page(1, 5, 11)) });
for (const q of [
  '',
  f('visibility:internal'),
  'include=count.posts',
  'order=name%20asc',
  'limit=5&page=3',
  'fields=slug',
  f("name:~'%'"),
  f('slug:-[news,tech]'),
  `include=count.posts&order=${enc('count.posts asc, slug asc')}`,
  f('created_at:<2023-10-10'),
  f('slug:[tech,news]'),
  'order=count.posts%20desc',
])
  add('admin', 'tags', q + (q.includes('limit') ? '' : `${q ? '&' : ''}${all}`));

// ---- Authors (Content) and users (Admin) -----------------------------------------------------------
group = 'users';
for (const q of [
  '',
  f('slug:[bob,alice]'),
  f('location:Lisbon'),
  f('email:xx'),
  f('password:xx'),
  f('status:locked'),
  'order=name%20desc',
  'include=count.posts',
  'fields=name,slug',
  f('location:-null'),
  `order=${enc('email desc')}`,
  f("name:~'o'"),
  f('Email:alice@example.com'),
])
  add('content', 'authors', q + (q.includes('limit') ? '' : `${q ? '&' : ''}${all}`));
add('content', 'authors', 'limit=2', { deviation: hasPostsTotal(page(1, 2, 3)) });
for (const q of [
  '',
  f('status:locked'),
  f('status:active'),
  f("name:~'e'"),
  'order=name%20asc',
  'order=created_at%20desc',
  'include=count.posts',
  'fields=name,email',
  f('location:null'),
  f('slug:[alice,bob]'),
  f("email:~'@example'"),
  'limit=2&page=2',
  f('status:-locked'),
])
  add('admin', 'users', q + (q.includes('limit') ? '' : `${q ? '&' : ''}${all}`));

// ---- Fields and include on posts ------------------------------------------------------------------------
group = 'fields';
for (const q of [
  'fields=title,slug',
  'fields=title,url',
  'fields=id,title,featured',
  'fields=title,excerpt',
  'fields=TITLE,Slug',
  'fields=title&include=tags',
  'include=tags,authors',
  'include=tags',
  'include=authors',
  'include=nope,tags',
])
  add('content', 'posts', `${q}&${all}`);
for (const q of ['include=tags,authors', 'fields=title,status', 'include=authors.roles', 'fields=title,slug&formats=html'])
  add('admin', 'posts', `${q}&${all}`);

export { cases };
