import { afterAll, beforeAll, it } from 'vitest';
import { ADMIN, CONTENT, adminAuth, bootstrap, startTestApp, type TestApp } from '../support.js';

let t: TestApp;
let keys: Awaited<ReturnType<typeof bootstrap>>;
beforeAll(async () => { t = await startTestApp(); keys = await bootstrap(t.app); });
afterAll(async () => { await t.close(); });

it('smoke', async () => {
  const h = () => adminAuth(keys.adminKey);
  let res = await t.app.inject({ method: 'POST', url: `${ADMIN}/posts/`, headers: h(), payload: { posts: [{ title: 'Hello', tags: ['News', '#int'], status: 'published' }] } });
  console.log(res.statusCode, JSON.stringify(res.headers), res.body.slice(0, 3000));
  const id = res.json().posts?.[0]?.id;
  res = await t.app.inject({ method: 'PUT', url: `${ADMIN}/posts/${id}/`, headers: h(), payload: { posts: [{ title: 'Hello 2', updated_at: '2020-01-01T00:00:00.000Z' }] } });
  console.log(res.statusCode, res.body.slice(0, 600));
  res = await t.app.inject({ method: 'GET', url: `${CONTENT}/posts/?key=${keys.contentKey}&include=tags,authors` });
  console.log(res.statusCode, res.body.slice(0, 3000));
  res = await t.app.inject({ method: 'GET', url: `${CONTENT}/tags/?key=${keys.contentKey}&include=count.posts` });
  console.log(res.statusCode, res.body.slice(0, 1000));
  res = await t.app.inject({ method: 'GET', url: `${CONTENT}/authors/?key=${keys.contentKey}&include=count.posts` });
  console.log(res.statusCode, res.body.slice(0, 1000));
});
