import { errors } from '../../errors.js';
import type { BodySpec } from '../../http/parse-body.js';

export type NotificationInput = Record<string, unknown>;

/**
 * `{"notifications": [{…}, …]}`: Ghost takes notifications as they come (any fields, shown back as sent),
 * after the api-framework's root check on the first one.
 */
export const NOTIFICATIONS_ADD: BodySpec<NotificationInput[]> = {
  read(body) {
    const root = (body as Record<string, unknown> | null | undefined)?.notifications;
    const items = Array.isArray(root) ? root : [];
    const first = items[0] as Record<string, unknown> | undefined;
    if (!first || typeof first !== 'object' || Object.keys(first).length === 0) throw errors.badRequest("No root key ('notifications') provided.");
    return items.filter((item): item is NotificationInput => !!item && typeof item === 'object' && !Array.isArray(item));
  },
};
