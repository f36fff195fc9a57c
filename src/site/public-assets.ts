/**
 * The site's own files under `/public/` that Ghost's pages link to: card styles and behaviour, the members
 * attribution script and the default error page's stylesheet. These are Quire's own small versions (Ghost
 * builds its from its source tree); the same URLs and types, a year of caching as Ghost sends (the URLs carry `?v=`).
 */
export const PUBLIC_ASSETS: ReadonlyMap<string, { type: string; body: string }> = new Map([
  [
    '/public/cards.min.css',
    {
      type: 'text/css',
      body: [
        '.kg-card{margin:0 0 1.5em}.kg-image-card img,.kg-gallery-image img{display:block;max-width:100%;height:auto}',
        '.kg-image-card figcaption,.kg-gallery-card figcaption,.kg-embed-card figcaption{text-align:center;font-size:.85em;opacity:.7;margin-top:.5em}',
        '.kg-width-wide{position:relative;width:85vw;min-width:100%;margin:auto calc(50% - 50vw);transform:translateX(calc(50vw - 50%))}',
        '.kg-width-full{position:relative;width:100vw;margin:auto calc(50% - 50vw)}',
        '.kg-gallery-container{display:flex;flex-direction:column}.kg-gallery-row{display:flex;flex-direction:row;justify-content:center}',
        '.kg-gallery-image:not(:first-of-type){margin:0 0 0 .75em}.kg-gallery-row:not(:first-of-type){margin:.75em 0 0}',
        '.kg-bookmark-card{width:100%}.kg-bookmark-container{display:flex;color:inherit;text-decoration:none;border:1px solid rgba(0,0,0,.1);border-radius:3px;min-height:148px}',
        '.kg-bookmark-content{flex-grow:1;padding:20px}.kg-bookmark-title{font-weight:600}.kg-bookmark-description{font-size:.9em;opacity:.7;max-height:3em;overflow:hidden}',
        '.kg-bookmark-metadata{display:flex;align-items:center;margin-top:12px;font-size:.85em}.kg-bookmark-icon{width:20px;height:20px;margin-right:6px}',
        '.kg-bookmark-thumbnail{position:relative;flex-grow:1;min-width:33%}.kg-bookmark-thumbnail img{position:absolute;top:0;left:0;width:100%;height:100%;object-fit:cover}',
        '.kg-callout-card{display:flex;padding:1.2em 1.6em;border-radius:3px}.kg-callout-emoji{padding-right:.8em}',
        '.kg-button-card{display:flex}.kg-button-card.kg-align-center{justify-content:center}.kg-btn{display:inline-flex;padding:0 1.2em;height:2.4em;line-height:2.4em;border-radius:5px;text-decoration:none;font-weight:600}',
        '.kg-toggle-card .kg-toggle-content{height:0;overflow:hidden}.kg-toggle-card[data-kg-toggle-state=open] .kg-toggle-content{height:auto}',
        '.kg-header-card{padding:6em 2em;text-align:center}.kg-divider{border:0;border-top:1px solid rgba(0,0,0,.15)}',
      ].join('\n'),
    },
  ],
  [
    '/public/cards.min.js',
    {
      type: 'application/javascript',
      body:
        '(function(){document.querySelectorAll(".kg-toggle-card").forEach(function(c){var h=c.querySelector(".kg-toggle-heading");if(!h)return;' +
        'h.addEventListener("click",function(){c.setAttribute("data-kg-toggle-state",c.getAttribute("data-kg-toggle-state")==="open"?"close":"open")})})})();\n',
    },
  ],
  [
    '/public/member-attribution.min.js',
    {
      type: 'application/javascript',
      // Remembers the pages a visitor read before signing up (Portal sends it as the member's attribution).
      body:
        '(function(){try{var k="ghost-history",h=JSON.parse(sessionStorage.getItem(k)||"[]");' +
        'h.push({path:location.pathname,time:Date.now(),referrerSource:document.referrer||null});' +
        'sessionStorage.setItem(k,JSON.stringify(h.slice(-15)))}catch(e){}})();\n',
    },
  ],
  [
    '/public/ghost.min.css',
    {
      type: 'text/css',
      body:
        'body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;color:#15171a}.gh-app{display:flex;min-height:100vh;align-items:center;justify-content:center}' +
        '.error-content{text-align:center;padding:4vw}.error-code{font-size:8em;margin:0;color:#c5d2d9}.error-description{font-weight:400;font-size:1.6em;margin:0 0 1.5em}.error-link{color:#15171a}\n',
    },
  ],
]);
