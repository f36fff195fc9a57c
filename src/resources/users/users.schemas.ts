import { assertSamePasswords } from '../../auth/passwords.js';
import { frameBody, type BodyOf } from '../../http/parse-body.js';
import { Type, uncheckedFields, type Static } from '../../http/schema.js';
import { USER_RULES, type UserColumn } from './users.rules.js';

/** `PUT /users/:id/`: any column (checked by `users.rules.ts`), a slug and one role. */
export const USER_EDIT = frameBody('users', uncheckedFields([...(Object.keys(USER_RULES.columns) as UserColumn[]), 'slug', 'roles', 'id']), {
  matchUrlId: true,
});
export type UserEditInput = BodyOf<typeof USER_EDIT>;

const PASSWORD = Type.Object({
  newPassword: Type.Unknown(),
  ne2Password: Type.Unknown(),
  user_id: Type.Unknown(),
  oldPassword: Type.Optional(Type.Unknown()),
});

/** `PUT /users/password/`: the three fields required, and the new password typed twice alike. */
export const PASSWORD_CHANGE = frameBody('password', PASSWORD, { check: assertSamePasswords });
export type PasswordInput = Static<typeof PASSWORD>;

/** `PUT /users/owner/`: the Administrator to hand the Owner role to. */
export const OWNER_TRANSFER = frameBody('owner', Type.Object({ id: Type.Optional(Type.Unknown()) }));
