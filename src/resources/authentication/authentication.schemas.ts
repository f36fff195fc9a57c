import { assertSamePasswords } from '../../auth/passwords.js';
import { errors } from '../../errors.js';
import { frameBody, looseBody, type BodyOf } from '../../http/parse-body.js';
import { Type, uncheckedFields } from '../../http/schema.js';

/** `POST /authentication/password_reset/`: the address is checked by the service (400, not 422). */
export const RESET_REQUEST = looseBody(uncheckedFields(['email']), { firstOf: 'password_reset' });

/** `PUT /authentication/password_reset/`: the link's token and the new password typed twice alike. */
export const RESET_PASSWORD = frameBody(
  'password_reset',
  Type.Object({
    newPassword: Type.Unknown(),
    ne2Password: Type.Unknown(),
    token: Type.Optional(Type.Unknown()),
  }),
  { check: assertSamePasswords },
);
export type ResetInput = BodyOf<typeof RESET_PASSWORD>;

/** `POST /authentication/invitation/`: the invitation validator's checks, in Ghost's order. */
export const ACCEPT_INVITATION = frameBody('invitation', uncheckedFields(['token', 'email', 'password', 'name']), {
  check(data) {
    if (!data.token) throw errors.validation('No token provided.');
    if (!data.email) throw errors.validation('No email provided.');
    if (!data.password) throw errors.validation('No password provided.');
    if (!data.name) throw errors.validation('No name provided.');
  },
});
export type AcceptInput = BodyOf<typeof ACCEPT_INVITATION>;
