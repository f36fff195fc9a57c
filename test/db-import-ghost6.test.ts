import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROUTES_YAML } from '../src/resources/route-settings/route-settings.validate.js';
import { useTestSite, withTestSite } from './test-site.js';
import { zipOf } from './uploads.js';
import { installTheme } from './site/site-support.js';
import { GHOST6_EXPORT, comparable, dataOf, ghost6Archive, importJson, type Row } from './db-support.js';

/**
 * A Ghost 6.65 export (test/fixtures/db/ghost6-export.json, the `GET /db/` answer of a Ghost 6 site with its
 * members included) imports whole: every table and setting either reads back or is named in `problems` with its
 * count and reason; Ghost 6's settings keys are stored and served; the file's default newsletter and paid tier
 * replace the fresh site's.
 */
const t = useTestSite();
const file = dataOf(GHOST6_EXPORT);

let problems: Row[];
beforeAll(async () => {
  const res = await importJson(t, GHOST6_EXPORT);
  expect(res.statusCode, res.body).toBe(200);
  problems = res.json().problems;
});

const notImported = (what: string) => problems.find((p) => String(p.message).startsWith(`Not imported: ${what} (`));

/** Admin API values as the file stores them (booleans as "true"/"false" text, the rest as stored). */
const fileText = (value: unknown) => (typeof value === 'boolean' ? String(value) : value === null ? null : String(value));

describe('POST /db/ with a Ghost 6 export', () => {
  it('names every table it does not import, with its row count and why', () => {
    const imported = new Set([
      'posts', 'posts_meta', 'users', 'posts_authors', 'roles', 'roles_users', 'settings', 'tags', 'posts_tags', 'members', 'products', 'offers',
      'benefits', 'products_benefits', 'members_products', 'posts_products', 'labels', 'members_labels', 'snippets', 'members_newsletters', 'newsletters',
      'custom_theme_settings',
    ]); // prettier-ignore
    for (const [table, rows] of Object.entries(file)) {
      if (rows.length === 0 || imported.has(table)) continue;
      const problem = notImported(`table "${table}"`);
      expect(problem, table).toBeDefined();
      expect(JSON.parse(String(problem!.context))).toMatchObject({ count: rows.length, reason: expect.any(String) });
    }
  });

  it("keeps the custom theme settings for the theme they belong to: Source shows the file's values once installed", async () => {
    await installTheme(t, 'source');
    const res = await t.admin.get('/custom_theme_settings/');
    expect(res.statusCode, res.body).toBe(200);
    const values = new Map((res.json().custom_theme_settings as { key: string; value: unknown }[]).map((s) => [s.key, s.value]));
    expect(values.get('navigation_layout')).toBe('Logo in the middle');
    expect(values.get('header_style')).toBe('Landing');
    expect(values.get('show_featured_posts')).toBe(false);
    expect(values.get('post_feed_style')).toBe('List');
  });

  it('names the columns of Ghost 6 it has no place for, with how many rows hold a value', () => {
    for (const [column, table] of [
      ['users.gift_subscription_notifications', 'users'],
      ['newsletters.show_share_button', 'newsletters'],
    ] as const) {
      const name = column.split('.')[1]!;
      const count = file[table]!.filter((row) => row[name] !== null && row[name] !== undefined && row[name] !== '').length;
      expect(notImported(`column "${column}"`)?.message, column).toMatch(new RegExp(`^Not imported: column "${column}" \\(${count}\\)\\. `));
    }
    // Columns that hold nothing in the file lose nothing and are not named.
    expect(notImported('column "members.commenting"')).toBeUndefined();
    expect(notImported('column "posts.reading_time"')).toBeUndefined();
  });

  it('every setting of the file reads back through the Admin API, or is named with the reason', async () => {
    const settings = (await t.admin.get('/settings/')).json().settings as { key: string; value: unknown }[];
    const shown = new Map(settings.map((s) => [s.key, s.value]));
    const skipped = file.settings!.filter((s) => notImported(`setting "${String(s.key)}"`)).map((s) => s.key);
    expect(skipped.sort()).toEqual(['is_private', 'members_support_address', 'password', 'portal_products', 'slack_url']);
    for (const setting of file.settings!) {
      const key = String(setting.key);
      if (skipped.includes(key) || key === 'labs' || key === 'active_theme') continue;
      expect(shown.has(key), key).toBe(true);
      expect(fileText(shown.get(key)), key).toBe(setting.value === '0.0' ? 'false' : setting.value);
    }
    // Source is not installed here: the theme is named, as Ghost does; the labs flag of Ghost's own rollout too.
    expect(problems.some((p) => p.message === 'Theme not imported, please upload in Settings - Design')).toBe(true);
    expect(notImported('labs flags "selfServeArchives"')).toBeDefined();
  });

  it('serves Ghost 6 settings as Ghost 6 does: the social accounts and Portal keys on the Content API', async () => {
    expect(
      (
        await t.admin.put('/settings/', {
          settings: [
            { key: 'bluesky', value: 'fieldnotes.bsky.social' },
            { key: 'transistor', value: true },
          ],
        })
      ).statusCode,
    ).toBe(200);
    const { settings } = (await t.content.get('/settings/')).json();
    expect(settings).toMatchObject({
      facebook: 'fieldnotes',
      twitter: '@fieldnotes',
      bluesky: 'fieldnotes.bsky.social',
      mastodon: null,
      portal_signup_gift_promotion: true,
      portal_account_gift_promotion: true,
      transistor_portal_heading: 'Podcasts',
    });
    // Keys Ghost 6 keeps private stay private.
    expect(settings).not.toHaveProperty('llms_enabled');
    expect(settings).not.toHaveProperty('machine_payments_amount');
    const admin = (await t.admin.get('/settings/?group=transistor')).json().settings;
    expect(admin.map((s: Row) => s.key)).toEqual([
      'transistor',
      'transistor_portal_enabled',
      'transistor_portal_heading',
      'transistor_portal_description',
      'transistor_portal_button_text',
      'transistor_portal_url_template',
    ]);
    expect(admin[0].value).toBe(true);
  });

  it("checks Ghost 6 keys as Ghost 6's settings model does", async () => {
    const empty = await t.admin.put('/settings/', { settings: [{ key: 'machine_payments_amount', value: '' }] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors[0]).toMatchObject({
      type: 'ValidationError',
      context: 'ValidationError: Validation (isEmpty) failed for machine_payments_amount',
    });
    const flag = await t.admin.put('/settings/', { settings: [{ key: 'portal_signup_gift_promotion', value: 'maybe' }] });
    expect(flag.statusCode).toBe(422);
    const ok = await t.admin.put('/settings/', {
      settings: [
        { key: 'llms_enabled', value: false },
        { key: 'machine_payments_amount', value: 250 },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const shown = new Map((ok.json().settings as { key: string; value: unknown }[]).map((s) => [s.key, s.value]));
    expect([shown.get('llms_enabled'), shown.get('machine_payments_amount')]).toEqual([false, '250']);
  });

  it("the file's default newsletter and paid tier replace the fresh site's, not beside them", async () => {
    const newsletters = (await t.admin.get('/newsletters/?limit=all')).json().newsletters as Row[];
    expect(newsletters.map((n) => [n.slug, n.name]).sort()).toEqual([
      ['default-newsletter', 'Field Notes'],
      ['weekly-digest', 'Weekly digest'],
    ]);
    expect(newsletters.find((n) => n.slug === 'default-newsletter')).toMatchObject({
      show_badge: true,
      show_header_name: false,
      sender_reply_to: 'newsletter',
    });
    const tiers = (await t.admin.get('/tiers/?limit=all&include=monthly_price,yearly_price,benefits')).json().tiers as Row[];
    expect(tiers.map((tier) => [tier.slug, tier.name]).sort()).toEqual([
      ['default-product', 'Field Notes'],
      ['free', 'Free'],
      ['gold', 'Gold'],
    ]);
    const gold = tiers.find((tier) => tier.slug === 'gold')!;
    expect(gold).toMatchObject({ welcome_page_url: '/welcome/', trial_days: 7, description: 'All the notes', monthly_price: 500, yearly_price: 5000 });
    expect((gold.benefits as Row[]).map((b) => (typeof b === 'string' ? b : b.name))).toEqual(['Early access', 'Members-only posts']);
  });

  it('imports the offer with its redemption type, and the snippet', async () => {
    const offers = (await t.admin.get('/offers/')).json().offers as Row[];
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ name: 'Launch discount', code: 'launch', amount: 20, type: 'percent', cadence: 'month', duration: 'once' });
    expect((offers[0]!.tier as Row).name).toBe('Gold');
    const stored = await t.db.selectFrom('offers').selectAll().where('code', '=', 'launch').executeTakeFirstOrThrow();
    expect((stored as Row).redemption_type).toBe('signup');
    const snippets = (await t.admin.get('/snippets/?formats=lexical,mobiledoc')).json().snippets as Row[];
    expect(snippets.find((s) => s.name === 'Signature')).toMatchObject({ lexical: file.snippets![0]!.lexical, mobiledoc: file.snippets![0]!.mobiledoc });
  });

  it('members come with labels, notes, newsletters and comped tiers', async () => {
    const members = (await t.admin.get('/members/?limit=all&include=labels,newsletters,tiers')).json().members as Row[];
    expect(members).toHaveLength(file.members!.length);
    const newsletterName = new Map(file.newsletters!.map((n) => [n.id, n.name]));
    const labelName = new Map(file.labels!.map((l) => [l.id, l.name]));
    for (const source of file.members!) {
      const member = members.find((m) => m.email === source.email)!;
      expect(member, String(source.email)).toBeDefined();
      expect(member).toMatchObject({ name: source.name, note: source.note, status: source.status });
      const labels = file.members_labels!.filter((l) => l.member_id === source.id).map((l) => labelName.get(l.label_id));
      expect((member.labels as Row[]).map((l) => l.name).sort()).toEqual(labels.sort());
      const subscribed = file.members_newsletters!.filter((l) => l.member_id === source.id).map((l) => newsletterName.get(l.newsletter_id));
      expect((member.newsletters as Row[]).map((n) => n.name).sort()).toEqual(subscribed.sort());
      const comped = file.members_products!.filter((l) => l.member_id === source.id).length;
      expect((member.tiers as Row[]).map((tier) => tier.name)).toEqual(comped ? ['Gold'] : []);
    }
  });
});

describe('POST /db/ names what a file holds and the site does not keep', () => {
  it('values of columns it reads and leaves out, columns and tables of a newer Ghost', async () => {
    const data = {
      tags: [
        { id: 't1', name: 'Parent', slug: 'parent-tag' },
        { id: 't2', name: 'Child', slug: 'child-tag', parent_id: 't1' },
      ],
      newsletters: [{ id: 'n1', name: 'Letters', slug: 'letters', sender_email: 'me@example.com' }],
      posts: [{ id: 'p1', title: 'Future', slug: 'future-post', lexical: null, html: '<p>x</p>', status: 'draft', future_column: 'kept?' }],
      comments: [{ id: 'c1' }, { id: 'c2' }],
    };
    const messages = await withTestSite(async (site) => {
      const res = await importJson(site, JSON.stringify({ db: [{ meta: { version: '6.65.0' }, data }] }));
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().problems as Row[]).map((p) => String(p.message));
    });
    expect(messages).toEqual(
      expect.arrayContaining([
        'Not imported: column "tags.parent_id" (1). Ghost 5 shows no tag hierarchy; a parent of the old site would point nowhere.',
        'Not imported: column "newsletters.sender_email" (1). An address to send from is verified by the site that sends, as Ghost drops it.',
        'Not imported: column "posts.future_column" (1). This site has no such column (the file is from a newer Ghost).',
        'Not imported: table "comments" (2). Comments are not built here yet.',
      ]),
    );
  });
});

describe('POST /db/ with an archive whose members.csv has columns this site does not read', () => {
  it('names them with the rows that hold a value', async () => {
    const csv = 'email,name,subscribed_to_emails,gift_id,deleted_at,favourite_colour\r\na@example.com,A,true,gift_1,,blue\r\nb@example.com,B,false,,,green';
    const zip = await zipOf([
      { name: 'export.json', data: JSON.stringify({ db: [{ meta: { version: '6.65.0' }, data: { posts: [] } }] }) },
      { name: 'members.csv', data: csv },
    ]);
    const messages = await withTestSite(async (site) => {
      const res = await site.admin.upload('/db/', { importfile: { name: 'site.zip', type: 'application/zip', data: zip } });
      expect(res.statusCode, res.body).toBe(200);
      expect((await site.admin.get('/members/?limit=all')).json().members).toHaveLength(2);
      return (res.json().problems as Row[]).map((p) => String(p.message));
    });
    expect(messages).toEqual(
      expect.arrayContaining([
        'Not imported: column "gift_id" of "members.csv" (1). Gift subscriptions are not built here.',
        'Not imported: column "favourite_colour" of "members.csv" (2). This site has no such member field.',
      ]),
    );
    expect(messages.some((m) => m.includes('deleted_at'))).toBe(false);
  });
});

describe("POST /db/ with Ghost 6's archive zip", () => {
  it('imports the members of members.csv, installs and activates the theme, and names what it leaves', async () => {
    await withTestSite(async (site) => {
      const zip = await ghost6Archive();
      const res = await site.admin.upload('/db/', { importfile: { name: 'site-export.zip', type: 'application/zip', data: zip } });
      expect(res.statusCode, res.body).toBe(200);
      const got = res.json().problems as Row[];
      const named = (what: string) => got.find((p) => String(p.message).startsWith(`Not imported: ${what} (`));
      expect(named('archive entry "post-analytics.csv"')).toBeDefined();
      // The archive's routes.yaml and redirects are in effect, as their uploads would put them.
      for (const entry of ['routes.yaml', 'redirects.yaml']) expect(named(`archive entry "${entry}"`), entry).toBeUndefined();
      expect((await site.admin.get('/settings/routes/yaml/')).body).toBe('routes:\ncollections:\n  /:\n    permalink: /{slug}/\n');
      expect((await site.admin.get('/redirects/download/')).body).toBe('301:\n  /old/: /new/\n');
      const moved = await site.app.inject({ url: '/old/' });
      expect(moved.statusCode).toBe(301);
      expect(moved.headers.location).toBe('/new/');
      expect(named('theme "themes/quire.zip"')!.message).toMatch(/not allowed to override the default theme/);
      expect(got.some((p) => p.message === 'Theme not imported, please upload in Settings - Design')).toBe(false);

      const themes = (await site.admin.get('/themes/')).json().themes as Row[];
      expect(themes.find((theme) => theme.name === 'fieldtheme')).toMatchObject({ active: true });

      const members = (await site.admin.get('/members/?limit=all&include=labels,newsletters,tiers')).json().members as Row[];
      expect(members).toHaveLength(file.members!.length);
      const labelName = new Map(file.labels!.map((l) => [l.id, l.name]));
      for (const source of file.members!) {
        const member = members.find((m) => m.email === source.email)!;
        expect(member, String(source.email)).toMatchObject({ name: source.name, note: source.note, status: source.status });
        const labels = file.members_labels!.filter((l) => l.member_id === source.id).map((l) => labelName.get(l.label_id));
        expect((member.labels as Row[]).map((l) => l.name).sort()).toEqual(labels.sort());
        // The CSV says subscribed or not: a subscriber joins the newsletters new members join (the default one here).
        const subscribed = file.members_newsletters!.some((l) => l.member_id === source.id);
        expect((member.newsletters as Row[]).map((n) => n.name)).toEqual(subscribed ? ['Field Notes'] : []);
        expect((member.tiers as Row[]).map((tier) => tier.name)).toEqual(source.status === 'comped' ? ['Gold'] : []);
      }
    });
  });
});

describe('round trip of a Ghost 6 site', () => {
  it('Quire → export → fresh Quire → export gives the same file, modulo ids and times', async () => {
    const include = '?include=members,labels,members_labels,members_newsletters,members_products';
    const first = await t.admin.get(`/db/${include}`);
    expect(first.statusCode).toBe(200);
    const exported = dataOf(first.body);
    expect(exported.benefits).toHaveLength(2);
    expect(exported.offers![0]).toMatchObject({ code: 'launch', redemption_type: 'signup' });
    const ghost6Keys = ['bluesky', 'linkedin', 'llms_enabled', 'machine_payments_amount', 'portal_signup_gift_promotion', 'transistor_portal_url_template'];
    expect(exported.settings!.map((s) => s.key)).toEqual(expect.arrayContaining(ghost6Keys));
    const second = await withTestSite(async (fresh) => {
      const res = await importJson(fresh, first.body);
      expect(res.statusCode, res.body).toBe(200);
      // Every table and column of a Quire file is imported; only settings keys are left, each named (the site's
      // own keys and state, and the keys Ghost's importer leaves too).
      const dropped = (res.json().problems as Row[]).filter((p) => String(p.message).startsWith('Not imported:'));
      expect(dropped.filter((p) => p.help !== 'Settings').map((p) => p.message)).toEqual([]);
      expect(dropped.map((p) => /setting "(\w+)"/.exec(String(p.message))![1])).toEqual(
        expect.arrayContaining(['db_hash', 'ghost_public_key', 'is_private', 'password', 'members_support_address', 'portal_products', 'slack_url']),
      );
      return dataOf((await fresh.admin.get(`/db/${include}`)).body);
    });
    const [a, b] = [comparable(exported), comparable(second)];
    for (const table of Object.keys(a)) expect(b[table], table).toEqual(a[table]);
  });
});

describe('POST /db/ with an archive whose routes.yaml or redirects do not validate', () => {
  it("names each with Ghost's message and keeps the files in effect", async () => {
    const zip = await zipOf([
      { name: 'export.json', data: JSON.stringify({ db: [{ meta: { version: '6.65.0' }, data: { posts: [] } }] }) },
      { name: 'routes.yaml', data: 'collections:\n  /blog/: {template: x}\n' },
      { name: 'redirects.json', data: '[{"from":"/a(/","to":"/b"}]' },
    ]);
    await withTestSite(async (site) => {
      const res = await site.admin.upload('/db/', { importfile: { name: 'site.zip', type: 'application/zip', data: zip } });
      expect(res.statusCode, res.body).toBe(200);
      const messages = (res.json().problems as Row[]).map((p) => String(p.message));
      expect(messages).toEqual(
        expect.arrayContaining([
          'Not imported: archive entry "routes.yaml" (1). The following definition "/blog/" is invalid: Please define a permalink route.',
          'Not imported: archive entry "redirects.json" (1). Incorrect RegEx in redirects file.',
        ]),
      );
      expect((await site.admin.get('/settings/routes/yaml/')).body).toBe(DEFAULT_ROUTES_YAML);
      expect((await site.admin.get('/redirects/download/')).json()).toEqual([]);
    });
  });

  it('imports a JSON redirects file beside the export', async () => {
    const zip = await zipOf([
      { name: 'export.json', data: JSON.stringify({ db: [{ meta: { version: '6.65.0' }, data: { posts: [] } }] }) },
      { name: 'redirects.json', data: '[{"from":"^/old/(.*)$","to":"/new/$1","permanent":false}]' },
    ]);
    await withTestSite(async (site) => {
      expect((await site.admin.upload('/db/', { importfile: { name: 'site.zip', type: 'application/zip', data: zip } })).statusCode).toBe(200);
      const moved = await site.app.inject({ url: '/old/thing/' });
      expect(moved.statusCode).toBe(302);
      expect(moved.headers.location).toBe('/new/thing/');
    });
  });
});
