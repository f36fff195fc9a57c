import { describe, expect, it } from 'vitest';
import { tagOutboundLinks } from './outbound-links.js';
import { SITE, contentApiFixture, lexicalFixture, mobiledocFixture } from '../../test/fixtures/content/load.js';

// Ghost's Content API html of the same published posts, with outbound_link_tagging on (the default).
const adminHtml = new Map([...lexicalFixture.cases, ...mobiledocFixture.cases].map((c) => [c.name, c.ghost.read.html]));
const isGated = (html: string) => html.includes('<!--members-only-->') || html.includes('kg-gated-block');

describe('tagOutboundLinks', () => {
  for (const c of contentApiFixture.cases) {
    const html = adminHtml.get(c.name);
    if (!html || isGated(html)) continue; // gating also changes these (posts' Content API presenter)
    it(`turns the Admin html of "${c.name}" into Ghost's Content API html`, () => {
      expect(tagOutboundLinks(html, SITE)).toBe(c.html);
    });
  }

  it('covers the quirks: entities decoded, bare hosts get "/", site links untouched in value', () => {
    const c = contentApiFixture.cases.find((x) => x.name === 'outbound-links')!;
    expect(c.html).toContain('href="https://after-class.example.com/a?b=1&c=2&ref=127.0.0.1"');
    expect(c.html).toContain(`<a href='https://single.example.com/'>`);
    expect(tagOutboundLinks('<a href="https://www.x.com">x</a>', 'https://www.mysite.com/')).toBe('<a href="https://www.x.com/?ref=mysite.com">x</a>');
  });

  it('returns the html unchanged when there is nothing to tag', () => {
    expect(tagOutboundLinks('<p>no links</p>', SITE)).toBe('<p>no links</p>');
    expect(tagOutboundLinks('', SITE)).toBe('');
  });
});
