import { v1 as uuidv1 } from 'uuid';

/** Ghost's error types with their HTTP status and default message (`@tryghost/errors`). */
export const ERROR_TYPES = {
  InternalServerError: [500, 'The server has encountered an error.'],
  IncorrectUsageError: [400, 'We detected a misuse. Please read the stack trace.'],
  NotFoundError: [404, 'Resource could not be found.'],
  BadRequestError: [400, 'The request could not be understood.'],
  UnauthorizedError: [401, 'You are not authorised to make this request.'],
  NoPermissionError: [403, 'You do not have permission to perform this request.'],
  ValidationError: [422, 'The request failed validation.'],
  UnsupportedMediaTypeError: [415, 'The media in the request is not supported by the server.'],
  TooManyRequestsError: [429, 'Server has received too many similar requests in a short space of time.'],
  MaintenanceError: [503, 'The server is temporarily down for maintenance.'],
  MethodNotAllowedError: [405, 'Method not allowed for resource.'],
  RequestNotAcceptableError: [406, 'Request not acceptable for provided Accept-Version header.'],
  RequestEntityTooLargeError: [413, 'Request was too big for the server to handle.'],
  VersionMismatchError: [400, 'Requested version does not match server version.'],
  EmailError: [500, 'The server encountered an error whilst sending email.'],
  ThemeValidationError: [422, 'The theme has a validation error.'],
  DisabledFeatureError: [409, 'Unable to complete the request, this feature is disabled.'],
  UpdateCollisionError: [409, 'Unable to complete the request, there was a conflict.'],
  HostLimitError: [403, 'Unable to complete the request, this resource is limited.'],
  PasswordResetRequiredError: [401, 'For security, you need to create a new password. An email has been sent to you with instructions!'],
  ConflictError: [409, 'The server has encountered an conflict.'],
} as const;

export type ErrorName = keyof typeof ERROR_TYPES;

export interface ErrorOptions {
  message?: string;
  context?: string | null;
  details?: unknown;
  property?: string | null;
  help?: string | null;
  code?: string | null;
  /** The wire `type` when it differs from the class name (`Needs2FAError`, `NotImplementedError`, …). */
  type?: string;
  status?: number;
  cause?: unknown;
}

/**
 * One error as Ghost renders it. `name` picks the status and the controller-message rewrite; `type` is what
 * the client sees (usually the same).
 */
export class GhostError extends Error {
  override readonly name: ErrorName;
  readonly type: string;
  readonly status: number;
  readonly context: string | null;
  readonly details: unknown;
  readonly property: string | null;
  readonly help: string | null;
  readonly code: string | null;
  readonly id = uuidv1();

  constructor(name: ErrorName, options: ErrorOptions = {}) {
    const [status, defaultMessage] = ERROR_TYPES[name];
    super(options.message ?? defaultMessage, { cause: options.cause });
    this.name = name;
    this.type = options.type ?? name;
    this.status = options.status ?? status;
    this.context = options.context ?? null;
    this.details = options.details ?? null;
    this.property = options.property ?? null;
    this.help = options.help ?? null;
    this.code = options.code ?? null;
  }
}

type Factory = (messageOrOptions?: string | ErrorOptions, options?: ErrorOptions) => GhostError;

function factory(name: ErrorName): Factory {
  return (messageOrOptions, options = {}) =>
    typeof messageOrOptions === 'string' ? new GhostError(name, { ...options, message: messageOrOptions }) : new GhostError(name, messageOrOptions ?? {});
}

export const errors = {
  internal: factory('InternalServerError'),
  notFound: factory('NotFoundError'),
  badRequest: factory('BadRequestError'),
  unauthorized: factory('UnauthorizedError'),
  noPermission: factory('NoPermissionError'),
  validation: factory('ValidationError'),
  tooManyRequests: factory('TooManyRequestsError'),
  maintenance: factory('MaintenanceError'),
  collision: factory('UpdateCollisionError'),
  email: factory('EmailError'),
  requestNotAcceptable: factory('RequestNotAcceptableError'),
  versionMismatch: factory('VersionMismatchError'),
  incorrectUsage: factory('IncorrectUsageError'),
  unsupportedMedia: factory('UnsupportedMediaTypeError'),
  tooLarge: factory('RequestEntityTooLargeError'),
  conflict: factory('ConflictError'),
  passwordResetRequired: factory('PasswordResetRequiredError'),
  /** Integration token on a route outside the allow-list (Ghost renders it as its own type with 501). */
  notImplemented: () =>
    new GhostError('InternalServerError', {
      type: 'NotImplementedError',
      status: 501,
      message: 'The server does not support the functionality required to fulfill the request.',
    }),
};
