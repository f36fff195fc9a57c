/**
 * Driver errors for broken constraints, translated once so feature code can answer with Ghost's
 * validation errors. Engines differ in what they tell: SQLite names the column, PostgreSQL the
 * constraint, MySQL the key; `column` is set only when the engine says it.
 */
export class ConstraintError extends Error {
  override name = 'ConstraintError';
  constructor(
    readonly kind: 'unique' | 'foreign_key' | 'not_null',
    readonly column: string | null,
    options: { cause: unknown },
  ) {
    super(`${kind} constraint failed${column ? ` on ${column}` : ''}`, options);
  }
}

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
  column?: string;
  constraint?: string;
  detail?: string;
}

export function translateDbError(err: unknown): unknown {
  if (!err || typeof err !== 'object' || err instanceof ConstraintError) return err;
  const e = err as DriverError;
  const message = e.message ?? '';
  switch (e.code) {
    // SQLite: "UNIQUE constraint failed: users.email"
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
      return new ConstraintError('unique', /failed: \w+\.(\w+)/.exec(message)?.[1] ?? null, { cause: err });
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return new ConstraintError('foreign_key', null, { cause: err });
    case 'SQLITE_CONSTRAINT_NOTNULL':
      return new ConstraintError('not_null', /failed: \w+\.(\w+)/.exec(message)?.[1] ?? null, { cause: err });
    // PostgreSQL: detail "Key (email)=(a@b.c) already exists."
    case '23505':
      return new ConstraintError('unique', /^Key \((\w+)\)/.exec(e.detail ?? '')?.[1] ?? null, { cause: err });
    case '23503':
      return new ConstraintError('foreign_key', null, { cause: err });
    case '23502':
      return new ConstraintError('not_null', e.column ?? null, { cause: err });
    // MySQL/MariaDB: "Duplicate entry 'x' for key 'users_email_unique'"
    case 'ER_DUP_ENTRY':
      return new ConstraintError('unique', /for key '(?:\w+\.)?\w+?_(\w+)_unique'/.exec(message)?.[1] ?? null, { cause: err });
    case 'ER_NO_REFERENCED_ROW_2':
    case 'ER_ROW_IS_REFERENCED_2':
      return new ConstraintError('foreign_key', null, { cause: err });
    case 'ER_BAD_NULL_ERROR':
      return new ConstraintError('not_null', /Column '(\w+)'/.exec(message)?.[1] ?? null, { cause: err });
    default:
      return err;
  }
}

/** Runs `fn`, rethrowing driver constraint failures as ConstraintError. */
export async function translated<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw translateDbError(err);
  }
}
