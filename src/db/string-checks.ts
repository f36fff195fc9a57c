import isEmailModule from 'validator/lib/isEmail.js';
import isUrlModule from 'validator/lib/isURL.js';
import isUuidModule from 'validator/lib/isUUID.js';

/*
 * The checks of validator the server uses, imported one by one: the package's index loads all of its
 * hundred-odd validators (about 1 MB of heap for the server's whole life). Each file is CommonJS whose
 * `module.exports` is the function with itself as `.default`; the types only know `.default`.
 */
export const isEmail = isEmailModule.default;
export const isURL = isUrlModule.default;
export const isUUID = isUuidModule.default;
export type { IsEmailOptions } from 'validator/lib/isEmail.js';
