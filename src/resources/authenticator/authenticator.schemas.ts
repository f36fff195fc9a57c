import { looseBody } from '../../http/parse-body.js';
import { uncheckedFields } from '../../http/schema.js';

/** `{"authenticator": [{token | password}]}`: the code confirming set-up, or the password guarding removal. */
export const AUTHENTICATOR = looseBody(uncheckedFields(['token', 'password']), { firstOf: 'authenticator' });
