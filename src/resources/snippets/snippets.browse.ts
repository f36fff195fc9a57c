import { browseSpecOf } from '../../browse/spec-of.js';
import { SNIPPET_FIELDS } from './snippets.fields.js';

/** Snippets (`core/server/models/snippet.js`): Admin API only, no default order. */
export const SNIPPETS_BROWSE = browseSpecOf('snippets', SNIPPET_FIELDS, { api: { admin: { defaultOrder: () => [] } } });
