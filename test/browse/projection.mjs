// What a browse case compares: the rows (by slug, in order), the pagination meta, and for `fields` and
// `include` cases the fields and related slugs each row carries; for errors the status and the error.
// Site URLs are replaced by `SITE/` so answers from two servers compare.

const RESOURCE_KEYS = { posts: 'posts', pages: 'pages', tags: 'tags', authors: 'authors', users: 'users' };

function siteless(value, siteUrl) {
  return JSON.parse(JSON.stringify(value).split(siteUrl).join('SITE/'));
}

const slugsOf = (list) => (Array.isArray(list) ? list.map((item) => item.slug) : list);
const relationOf = (value) => (value && typeof value === 'object' ? value.slug : value);

export function project(kase, status, body, siteUrl) {
  if (body.errors) {
    const [error] = body.errors;
    return { status, error: { type: error.type, message: error.message, context: error.context, code: error.code } };
  }
  const items = body[RESOURCE_KEYS[kase.resource]] ?? [];
  const params = new URLSearchParams(kase.q);
  const out = { status, slugs: items.map((item) => item.slug ?? item.id ?? null), pagination: body.meta?.pagination ?? null };
  if (params.has('fields')) {
    out.items = items.map((item) => siteless(item, siteUrl));
  }
  if (params.has('include')) {
    out.include = items.map((item) => ({
      tags: slugsOf(item.tags),
      authors: slugsOf(item.authors),
      roles: Array.isArray(item.authors) ? item.authors.map((a) => (a.roles ? a.roles.map((r) => r.name) : undefined)) : undefined,
      primary_tag: relationOf(item.primary_tag),
      primary_author: relationOf(item.primary_author),
      count: item.count,
    }));
  }
  return JSON.parse(JSON.stringify(out));
}
