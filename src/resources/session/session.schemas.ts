import { looseBody, type BodyOf } from '../../http/parse-body.js';
import { uncheckedFields } from '../../http/schema.js';

/** `POST /session/`: the credentials, and a sign-in code when the device is new (checked by the service). */
export const LOGIN = looseBody(uncheckedFields(['username', 'password', 'token']));
export type Credentials = BodyOf<typeof LOGIN>;

/** `PUT /session/verify/`: the e-mailed or app code. */
export const VERIFY = looseBody(uncheckedFields(['token']));
