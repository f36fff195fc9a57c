import { ADMIN_PACKAGE } from './pin.js';

/**
 * What `<site>ghost/` answers when the admin build is not installed (an install that could not reach the npm
 * registry, or a build folder emptied by hand): how to get it. The folder's path is left out, as the page is
 * public; the server's log names it at start.
 */
export function missingBuildPage(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Admin app not installed</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:4em auto;padding:0 1em;color:#15171a}code{background:#f1f3f4;padding:.1em .3em;border-radius:3px}</style>
</head>
<body>
<h1>The admin app is not installed yet</h1>
<p>This server serves Ghost's own admin app (from the <code>${ADMIN_PACKAGE.name}@${ADMIN_PACKAGE.version}</code> npm package), but its files are not on this machine: the install could not reach the npm registry.</p>
<p>In the folder Quire is installed in, run:</p>
<p><code>npm run admin:fetch</code> &nbsp;(or <code>node dist/cli.mjs admin fetch</code>)</p>
<p>then reload this page (no restart needed). The Admin API at <code>ghost/api/admin/</code> works without it. To serve no admin app here, set <code>ADMIN_APP=false</code>.</p>
</body>
</html>
`;
}
