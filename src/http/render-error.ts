import type { FastifyReply, FastifyRequest } from 'fastify';
import { GhostError, errors } from '../errors.js';
import { frameOf } from './frame.js';
import { ConstraintError } from '../db/errors.js';
import { NO_CACHE, NOT_FOUND_NO_CACHE } from './api-headers.js';

const REWRITES: Record<string, string> = {
  InternalServerError: 'Internal server error, cannot {action}.',
  IncorrectUsageError: 'Incorrect usage error, cannot {action}.',
  NotFoundError: 'Resource not found error, cannot {action}.',
  BadRequestError: 'Request not understood error, cannot {action}.',
  UnauthorizedError: 'Authorisation error, cannot {action}.',
  NoPermissionError: 'Permission error, cannot {action}.',
  ValidationError: 'Validation error, cannot {action}.',
  UnsupportedMediaTypeError: 'Unsupported media error, cannot {action}.',
  TooManyRequestsError: 'Too many requests error, cannot {action}.',
  MaintenanceError: 'Server down for maintenance, cannot {action}.',
  MethodNotAllowedError: 'Method not allowed, cannot {action}.',
  RequestEntityTooLargeError: 'Request too large, cannot {action}.',
  TokenRevocationError: 'Token is not available, cannot {action}.',
  VersionMismatchError: 'Version mismatch error, cannot {action}.',
  DataExportError: 'Error exporting content.',
  DataImportError: 'Duplicated entry, cannot save {action}.',
  EmailError: 'Error sending email!',
  ThemeValidationError: 'Theme validation error, cannot {action}.',
  HostLimitError: 'Host Limit error, cannot {action}.',
  UpdateCollisionError: 'Saving failed! Someone else is editing this post.',
};

const VERBS: Record<string, string> = { browse: 'list', read: 'read', add: 'save', edit: 'edit', destroy: 'delete' };

function actionOf(docName: string, method: string): string | null {
  if (docName === 'images' && method === 'upload') return 'upload image';
  const verb = VERBS[method];
  if (!verb) return null;
  return `${verb} ${method === 'browse' ? docName : docName.replace(/s$/, '')}`;
}

/** Ghost's controller-message rewrite (errors.md §3): the original message moves into `context`. */
function rewrite(error: GhostError, request: FastifyRequest): GhostError {
  const frame = frameOf(request);
  if (!frame || !request.controllerStarted) return error;
  const action = actionOf(frame.docName, frame.method);
  if (!action) return error;
  const template = REWRITES[error.name] ?? `Unknown error - ${error.name}, cannot {action}.`;
  const context = error.context ? `${error.message} ${error.context}` : error.message;
  return Object.assign(Object.create(Object.getPrototypeOf(error)), error, {
    message: template.replace('{action}', action),
    context,
  });
}

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  message?: string;
  validation?: unknown;
}

/** Anything thrown becomes a GhostError (renderError logs the unexpected ones with their cause). */
export function toGhostError(err: unknown): GhostError {
  if (err instanceof GhostError) return err;
  const e = (err ?? {}) as FastifyLikeError;
  if (err instanceof ConstraintError) {
    return errors.internal({ message: 'An unexpected error occurred, please try again.', code: 'UNEXPECTED_ERROR' });
  }
  // Framework errors that carry a client status (bad JSON, body too large, unsupported type) are wrapped
  // as Ghost's error handler wraps body-parser errors: InternalServerError type, the original status.
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 404) return errors.notFound();
    return errors.internal({
      message: 'An unexpected error occurred, please try again.',
      // Ghost's body-parser words an oversized body this way (checked against Ghost 5.130.6).
      context: e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'request entity too large' : (e.message ?? null),
      code: 'UNEXPECTED_ERROR',
      status: e.statusCode,
    });
  }
  return errors.internal({ message: 'An unexpected error occurred, please try again.', code: 'UNEXPECTED_ERROR' });
}

/**
 * Errors are never cached: Ghost's default no-cache header, or for an anonymous GET 404 (a Content API miss)
 * its `max-age=0` variant, whatever a success on the same route would have said.
 */
function errorCacheControl(request: FastifyRequest, status: number): string {
  const anonymous = !request.headers.cookie && !request.headers.authorization;
  return request.method === 'GET' && status === 404 && anonymous ? NOT_FOUND_NO_CACHE : NO_CACHE;
}

export function renderError(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  const error = rewrite(toGhostError(err), request);
  reply.header('Cache-Control', errorCacheControl(request, error.status));
  request.answeredError = { type: error.type, message: error.message, context: error.context, id: error.id };
  // A failure of ours: the cause with its stack, under the id the client was given.
  if (error.status >= 500) request.log.error({ err, error_id: error.id }, 'unexpected error');
  return reply.status(error.status).type('application/json; charset=utf-8').send(errorBody(error));
}

/** The JSON body Ghost answers an error with. */
export function errorBody(error: GhostError) {
  return {
    errors: [
      {
        message: error.message,
        context: error.context,
        type: error.type,
        details: error.details,
        property: error.property,
        help: error.help,
        code: error.code,
        id: error.id,
        ghostErrorCode: null,
      },
    ],
  };
}
