import { frameBody, type BodyOf } from '../../http/parse-body.js';
import { uncheckedFields } from '../../http/schema.js';

/** `POST|PUT /authentication/setup/`: the owner and the site's title; checked by the password policy and the users model. */
export const SETUP = frameBody('setup', uncheckedFields(['name', 'email', 'password', 'blogTitle', 'description', 'accentColor']));
export type SetupInput = BodyOf<typeof SETUP>;
