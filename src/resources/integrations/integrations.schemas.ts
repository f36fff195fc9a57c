// `webhooks` is accepted by Ghost and ignored here until webhooks exist; values are checked by `integrations.rules.ts`.
import { frameBody, type BodyOf } from '../../http/parse-body.js';
import { Type, uncheckedFields } from '../../http/schema.js';

export const INTEGRATION_ADD = frameBody(
  'integrations',
  Type.Object({
    name: Type.Unknown(),
    icon_image: Type.Optional(Type.Unknown()),
    description: Type.Optional(Type.Unknown()),
  }),
);
export const INTEGRATION_EDIT = frameBody('integrations', uncheckedFields(['id', 'name', 'icon_image', 'description']), { matchUrlId: true });
/** Refreshing a key takes no fields, but Ghost still wants the `integrations` root. */
export const INTEGRATION_REFRESH = frameBody('integrations', Type.Object({}));

export type IntegrationAddInput = BodyOf<typeof INTEGRATION_ADD>;
export type IntegrationInput = BodyOf<typeof INTEGRATION_EDIT>;
