import type { FastifyRequest } from 'fastify';
import { requestCtx, type Ctx, type CtxBase } from '../ctx.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `ctxHook`, after authentication, for every API route. */
    ctx: Ctx;
  }
}

/** Builds `request.ctx`; registered after the scope's authentication hook so it carries the caller. */
export function ctxHook(base: CtxBase) {
  return async function buildRequestCtx(request: FastifyRequest) {
    request.ctx = requestCtx(base, request.actor ?? null, { invalidatesSite: request.routeOptions.config.invalidatesSite === true });
  };
}
