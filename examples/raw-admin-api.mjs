// Signed Admin API requests for what @tryghost/admin-api has no method for (tiers, offers, the members CSV
// import, labels, settings, …), with the SDK's own token helper. Run it against a site set up by
// `npm run setup` (in a project that has `npm install @tryghost/admin-api`):
//
//   ADMIN_API_URL=http://localhost:2368 ADMIN_KEY=<id>:<secret> node examples/raw-admin-api.mjs
//
// test/raw-requests.e2e.test.ts runs this file against a server, so what the README shows works.
import token from '@tryghost/admin-api/lib/token.js';

/** One Admin API call: `path` under /ghost/api/admin, a JSON body or a FormData (uploads). */
export function adminApi(url, key) {
  return async function ghost(method, path, body) {
    const headers = {
      // A fresh token per request: it is valid for 5 minutes, for the Admin API's audience.
      Authorization: `Ghost ${token(key, '/admin/')}`,
      'Accept-Version': 'v5.0',
    };
    if (body !== undefined && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${url}/ghost/api/admin${path}`, {
      method,
      headers,
      body: body === undefined || body instanceof FormData ? body : JSON.stringify(body),
    });
    const data = res.status === 204 ? null : await res.json();
    if (!res.ok) {
      const [error] = data.errors;
      throw new Error(`${method} ${path}: ${res.status} ${error.type}: ${error.message}${error.context ? ` (${error.context})` : ''}`);
    }
    return data;
  };
}

const ghost = adminApi(process.env.ADMIN_API_URL, process.env.ADMIN_KEY);

// Tiers: list the paid ones, add one.
const { tiers } = await ghost('GET', '/tiers/?filter=type:paid');
console.log('paid tiers:', tiers.map((tier) => tier.name).join(', '));
const gold = (await ghost('POST', '/tiers/', { tiers: [{ name: 'Gold', currency: 'usd', monthly_price: 1000, yearly_price: 10000 }] })).tiers[0];
console.log('tier added:', gold.slug);

// Offers: 20 % off the first month of that tier.
const { offers } = await ghost('POST', '/offers/', {
  offers: [{ name: 'Launch', code: 'launch', cadence: 'month', type: 'percent', amount: 20, duration: 'once', tier: { id: gold.id } }],
});
console.log('offer added:', offers[0].code);

// Members CSV import: a multipart upload of the file, with labels for the imported members.
const csv = 'email,name\nreader.one@example.com,Reader One\nreader.two@example.com,Reader Two\n';
const form = new FormData();
form.append('membersfile', new Blob([csv], { type: 'text/csv' }), 'members.csv');
form.append('labels', 'imported');
const imported = await ghost('POST', '/members/upload/', form);
console.log('members imported:', imported.meta.stats.imported);

// Labels: the import made one.
const { labels } = await ghost('GET', '/labels/');
console.log('labels:', labels.map((label) => label.name).join(', '));
