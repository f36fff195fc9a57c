import { beforeAll, describe, expect, it } from 'vitest';
import { useTestSite } from './test-site.js';

/**
 * `POST /members/upload/` with a file that names tiers and newsletters (Ghost's own export names a comped
 * member's tiers in `tiers`; a `newsletters` column may name subscriptions): members get those, not the
 * default tier and the default newsletters. A name that is not here refuses the row, as an unknown
 * `import_tier` does.
 */
const t = useTestSite();
const upload = (data: string) => t.admin.upload('/members/upload/', { membersfile: { name: 'members.csv', type: 'text/csv', data } });
const member = async (email: string) =>
  (await t.admin.get(`/members/?filter=${encodeURIComponent(`email:'${email}'`)}&include=tiers,newsletters`)).json().members[0] as {
    status: string;
    tiers: { name: string }[];
    newsletters: { name: string }[];
  };

beforeAll(async () => {
  for (const name of ['Gold', 'Silver']) {
    const res = await t.admin.post('/tiers/', { tiers: [{ name, currency: 'usd', monthly_price: 500, yearly_price: 5000, visibility: 'public' }] });
    expect(res.statusCode, res.body).toBe(201);
  }
  const res = await t.admin.post('/newsletters/', { newsletters: [{ name: 'Weekly digest', subscribe_on_signup: false }] });
  expect(res.statusCode, res.body).toBe(201);
});

describe('POST /members/upload/ with named tiers and newsletters', () => {
  it('comps members on the tiers the file names and subscribes them to the newsletters it names', async () => {
    const res = await upload(
      [
        'email,name,subscribed_to_emails,complimentary_plan,tiers,newsletters',
        'gold@example.com,Gold One,true,true,Gold,Weekly digest',
        'both@example.com,Both,true,true,"Gold,Silver",',
        'plain@example.com,Plain,true,,,',
        'nolist@example.com,No list,false,,,Weekly digest',
        'bad@example.com,Bad,true,true,Platinum,',
        'badnews@example.com,Bad news,true,,,Monthly',
      ].join('\n'),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { stats } = res.json().meta;
    expect(stats.imported).toBe(4);
    expect(stats.invalid.map((row: { email: string; error: string }) => [row.email, row.error])).toEqual([
      ['bad@example.com', '"Platinum" is not a valid tier.'],
      ['badnews@example.com', '"Monthly" is not a valid newsletter.'],
    ]);
    const gold = await member('gold@example.com');
    expect(gold.status).toBe('comped');
    expect(gold.tiers.map((tier) => tier.name)).toEqual(['Gold']);
    expect(gold.newsletters.map((n) => n.name)).toEqual(['Weekly digest']);
    expect((await member('both@example.com')).tiers.map((tier) => tier.name)).toEqual(['Gold', 'Silver']);
    // Without names: the newsletters new members join (the default one, not the weekly digest).
    const plain = await member('plain@example.com');
    expect(plain.status).toBe('free');
    expect(plain.newsletters.map((n) => n.name)).toEqual(['Test Site']);
    expect((await member('nolist@example.com')).newsletters).toEqual([]);
  });

  it('a comped row without tiers still gets the default paid tier, as Ghost does', async () => {
    const res = await upload('email,complimentary_plan\ncomped@example.com,true\n');
    expect(res.statusCode, res.body).toBe(201);
    const comped = await member('comped@example.com');
    expect(comped.status).toBe('comped');
    expect(comped.tiers).toHaveLength(1);
    expect(['Gold', 'Silver']).not.toContain(comped.tiers[0]!.name);
  });
});
