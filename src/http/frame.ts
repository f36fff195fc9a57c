import type { FastifyRequest } from 'fastify';
import type { Permission } from '../auth/permissions.js';

/**
 * What Ghost calls a controller frame: the resource (`docName`) and method a route runs. Errors raised
 * once the controller has started are rewritten into `"<Kind> error, cannot <verb> <resource>."`.
 */
export interface Frame {
  docName: string;
  method: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    frame?: Frame;
    /** Permission row checked before the handler (`integration.browse`, …). */
    permission?: Permission;
    /**
     * `public` routes skip admin authentication; `url-token` routes (Ghost's scheduler callback) take an
     * admin-key JWT from `?token=` only, without the 5-minute age limit.
     */
    auth?: 'public' | 'required' | 'url-token';
    /**
     * Ghost's controller `cacheInvalidate: true`: a successful write records `site.changed` and the answer
     * carries `X-Cache-Invalidate: /*` (`ctx.ts`, `http/cache-invalidate.ts`).
     */
    invalidatesSite?: boolean;
  }
  interface FastifyRequest {
    /** Set once authentication passed and the controller (validation onwards) runs. */
    controllerStarted?: boolean;
  }
}

export function frameOf(request: FastifyRequest): Frame | undefined {
  return request.routeOptions?.config?.frame;
}

/**
 * The frame helper every route file uses: `const frame = framesOf('labels')`, then `frame('add')`. Route
 * declarations (`browseRoute`, `readRoutes`, `writeRoutes`) set it themselves.
 */
export const framesOf =
  (docName: string) =>
  (method: string): Frame => ({ docName, method });
