import { describe, expect, it } from 'vitest';
import { expectGhostError } from '../../../test/support.js';
import { useTestSite } from '../../../test/test-site.js';

// Inline up to 5,000 rows here, so the export's paging test imports its members during the request.
const t = useTestSite({ caller: 'integration', settings: { MEMBERS_IMPORT_INLINE_ROWS: '5000' } });

const csvFile = (data: string, type = 'text/csv', name = 'members.csv') => ({ name, type, data });
const importCsv = (data: string, fields: Record<string, string | string[]> = {}) =>
  t.admin.upload('/members/upload/', { membersfile: csvFile(data), ...fields });
const memberByEmail = async (email: string) => {
  const res = await t.admin.get(`/members/?filter=${encodeURIComponent(`email:'${email}'`)}&include=tiers`);
  return res.json().members[0] as Record<string, unknown> & { labels: { name: string }[]; tiers: { name: string }[] };
};
const paidTier = () => t.db.selectFrom('products').select(['id', 'name']).where('type', '=', 'paid').executeTakeFirstOrThrow();

/** The export's lines, split on the CRLF between rows (a note may hold a bare LF inside quotes). */
const lines = (body: string) => body.split('\r\n');

describe('POST /members/upload/ (small files, imported during the request)', () => {
  it('imports good rows, reports each bad one with Ghost’s message, and labels every member with the import label', async () => {
    const { name: tier } = await paidTier();
    const csv = [
      'email,name,note,subscribed_to_emails,complimentary_plan,labels,created_at,import_tier',
      'ann@example.com,Ann,"Note, with ""quotes""\nand a line",true,,"vip,early",2020-01-01T00:00:00.000Z,',
      'not-an-email,Bob,,,,,,',
      ',Nobody,,,,,,',
      `cee@example.com,=Cee,,false,true,,,${tier}`,
      'eve@example.com,Eve,,,,,,Gold',
      'fay@example.com,Fay,,,true,,,',
      'ann@example.com,Ann Again,,,,dup,,',
      'gee@example.com,Gee,,,,,not-a-date,',
      `ida@example.com,Ida,,,,,,${tier}`,
    ].join('\n');
    const res = await importCsv(csv, { labels: ['extra', 'other'] });
    expect(res.statusCode).toBe(201);
    const { meta } = res.json();
    expect(meta.originalImportSize).toBe(9);
    expect(meta.stats.imported).toBe(4);
    expect(meta.stats.invalid.map((row: { email: string | null; error: string }) => [row.email, row.error])).toEqual([
      ['not-an-email', 'Invalid Email'],
      [null, 'Validator validates strings only'],
      ['eve@example.com', '"Gold" is not a valid tier.'],
      ['gee@example.com', 'Date format for `created_at` is invalid.'],
      ['ida@example.com', 'You cannot import a free member with a specified tier.'],
    ]);
    // A refused row comes back as the importer read it, in its columns, with the import's labels.
    const label = meta.import_label.name as string;
    expect(label).toMatch(/^Import \d{4}-\d\d-\d\d \d\d:\d\d$/);
    expect(meta.stats.invalid[0]).toEqual({
      email: 'not-an-email',
      name: 'Bob',
      note: null,
      subscribed: true,
      complimentary_plan: false,
      labels: [{ name: label }, { name: 'extra' }, { name: 'other' }],
      created_at: null,
      import_tier: null,
      error: 'Invalid Email',
    });
    expect(Object.keys(meta.import_label)).toEqual(['name', 'id', 'slug', 'created_at', 'updated_at']);

    const ann = await memberByEmail('ann@example.com');
    expect(ann.name).toBe('Ann Again');
    expect(ann.note).toBe('Note, with "quotes"\nand a line');
    expect(ann.created_at).toBe('2020-01-01T00:00:00.000Z');
    expect(ann.subscribed).toBe(true);
    expect(ann.labels.map((l) => l.name)).toEqual(['vip', 'early', label, 'extra', 'other', 'dup']);
    const cee = await memberByEmail('cee@example.com');
    // Ghost's writer escapes a formula-like cell with an apostrophe, and its importer reads its own file back.
    expect(cee.name).toBe("'=Cee");
    expect(cee.subscribed).toBe(false);
    expect(cee.status).toBe('comped');
    expect(cee.tiers.map((x) => x.name)).toEqual([tier]);
    const fay = await memberByEmail('fay@example.com');
    expect(fay.tiers.map((x) => x.name)).toEqual([tier]);
    expect(await memberByEmail('not-an-email')).toBeUndefined();
    const count = await t.db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', 'ann@example.com')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('updates an existing member as Ghost does: labels added, blank cells keep what was there, false unsubscribes', async () => {
    const made = await t.admin.post('/members/', { members: [{ email: 'kept@example.com', name: 'Kept', note: 'old note', labels: ['first'] }] });
    expect(made.statusCode).toBe(201);
    const res = await importCsv('email,name,note,subscribed_to_emails,labels\nKEPT@example.com,,new note,false,second\n');
    expect(res.statusCode).toBe(201);
    expect(res.json().meta.stats).toEqual({ imported: 1, invalid: [] });
    const kept = await memberByEmail('kept@example.com');
    expect(kept.name).toBe('Kept');
    expect(kept.note).toBe('new note');
    expect(kept.subscribed).toBe(false);
    expect(kept.labels.map((l) => l.name).slice(0, 2)).toEqual(['first', 'second']);
  });

  it('applies the mapping form fields, drops unmapped columns, and answers zero for a file of no rows', async () => {
    const res = await importCsv('E-mail,Full name,Ignored\nmapped@example.com,Mapped,x\n', { 'mapping[E-mail]': 'email', 'mapping[Full name]': 'name' });
    expect(res.statusCode).toBe(201);
    expect(res.json().meta.stats.imported).toBe(1);
    expect((await memberByEmail('mapped@example.com')).name).toBe('Mapped');
    const empty = await importCsv('email,name\n');
    expect(empty.statusCode).toBe(201);
    expect(empty.json().meta).toEqual({ originalImportSize: 0, stats: { imported: 0, invalid: [] }, import_label: null });
  });

  it('refuses a missing file, a file of another type and another field name with Ghost’s errors', async () => {
    const missing = await t.admin.upload('/members/upload/', { labels: 'x' });
    expectGhostError(missing, { status: 422, type: 'ValidationError', message: 'Please select a members CSV file.' });
    const png = await t.admin.upload('/members/upload/', { membersfile: csvFile('email\n', 'image/png') });
    expectGhostError(png, { status: 415, type: 'UnsupportedMediaTypeError', message: 'Please select a valid CSV file.' });
    const other = await t.admin.upload('/members/upload/', { file: csvFile('email\n') });
    expectGhostError(other, { status: 400, type: 'BadRequestError', code: 'LIMIT_UNEXPECTED_FILE' });
  });
});

describe('GET /members/upload/ (export)', () => {
  it('streams Ghost’s columns and quoting as an attachment, filtered and searched as browse is', async () => {
    const { name: tier } = await paidTier();
    const made = await t.admin.post('/members/', {
      members: [{ email: 'export@example.com', name: ' Spaced', note: 'a, "b"\nc', labels: ['Zed', 'Alpha, Beta'], tiers: [{ name: tier }] }],
    });
    expect(made.statusCode).toBe(201);
    const member = made.json().members[0];
    const res = await t.admin.get('/members/upload/?filter=label:zed');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="members.${new Date().toJSON().slice(0, 10)}.csv"`);
    expect(lines(res.body)).toEqual([
      'id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers',
      `${member.id},export@example.com," Spaced","a, ""b""\nc",true,true,,${member.created_at},,"Zed,Alpha, Beta",${tier}`,
    ]);
    const searched = await t.admin.get('/members/upload/?search=EXPORT@');
    expect(lines(searched.body)).toHaveLength(2);
    const none = await t.admin.get('/members/upload/?filter=label:no-such-label');
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('');
    const bad = await t.admin.get('/members/upload/?filter=nonsense:x');
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);
    expect(bad.statusCode).toBeLessThan(500);
  });

  it('exports every member, across pages, each once', async () => {
    const emails = Array.from({ length: 2300 }, (_, i) => `page-${i}@example.com`);
    const res = await importCsv(['email', ...emails].join('\n'));
    expect(res.statusCode).toBe(201);
    const exported = await t.admin.get('/members/upload/?filter=email:~%27page-%27');
    const rows = lines(exported.body).slice(1);
    expect(new Set(rows.map((row) => row.split(',')[1])).size).toBe(2300);
    expect(rows).toHaveLength(2300);
  });
});
