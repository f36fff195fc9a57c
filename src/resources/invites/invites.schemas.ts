import { frameBody, type BodyOf } from '../../http/parse-body.js';
import { Type } from '../../http/schema.js';

/** `POST /invites/`: both fields required (in this order); their values are checked by the model and the role rules. */
export const INVITE_ADD = frameBody('invites', Type.Object({ role_id: Type.Unknown(), email: Type.Unknown() }));
export type InviteInput = BodyOf<typeof INVITE_ADD>;
