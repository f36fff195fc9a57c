/**
 * The styles of the members call to action (`{{content}}` for a visitor without access), printed with Portal
 * as Ghost does. Our own rules for Ghost's class names: the parity test normalises this block.
 */
export const MEMBERS_STYLES =
  '.gh-post-upgrade-cta-content,.gh-post-upgrade-cta{display:flex;flex-direction:column;align-items:center;text-align:center;width:100%;color:#fff;font-size:16px}' +
  '.gh-post-upgrade-cta-content{border-radius:8px;padding:40px 4vw}.gh-post-upgrade-cta h2{color:#fff;font-size:28px;margin:0;padding:0}' +
  '.gh-post-upgrade-cta p{margin:20px 0 0;padding:0}.gh-post-upgrade-cta a{color:#fff;cursor:pointer;font-weight:500;text-decoration:underline}' +
  '.gh-post-upgrade-cta a.gh-btn{display:block;background:#fff;text-decoration:none;margin:28px 0 0;padding:8px 18px;border-radius:4px;font-size:16px;font-weight:600}';
