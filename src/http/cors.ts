import { networkInterfaces } from 'node:os';

/**
 * Admin API CORS: browsers may call it from localhost, this machine's addresses, or the site's own host
 * (Ghost's allow-list); other origins get no CORS headers at all.
 */
export function adminCorsOrigin(siteUrl: string) {
  const allowedHosts = new Set(['localhost', new URL(siteUrl).hostname]);
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4') allowedHosts.add(address.address);
  }
  return (origin: string | undefined, callback: (err: Error | null, allow: boolean | string) => void) => {
    if (!origin || origin === 'null') return callback(null, false);
    try {
      callback(null, allowedHosts.has(new URL(origin).hostname) ? origin : false);
    } catch {
      callback(null, false);
    }
  };
}
