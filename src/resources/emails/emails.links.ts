import { createHmac } from 'node:crypto';
import { memberUuidKey } from '../../auth/member-session.js';

/**
 * Ghost's personal unsubscribe link (its `createUnsubscribeUrl`): `<site>/unsubscribe/?uuid=…&key=…&newsletter=…`,
 * the key the uuid's HMAC with `members_email_auth_secret`, so the link cannot be forged for someone else.
 */
export function unsubscribeUrl(siteUrl: string, memberUuid: string, validationKey: string, newsletterUuid: string): string {
  const url = new URL('unsubscribe/', siteUrl);
  url.searchParams.set('uuid', memberUuid);
  url.searchParams.set('key', memberUuidKey(memberUuid, validationKey));
  url.searchParams.set('newsletter', newsletterUuid);
  return url.href;
}

/** The key of a recipient's open pixel: an HMAC of the recipient row's id, so opens cannot be recorded for others. */
export function openKey(recipientId: string, validationKey: string): string {
  return createHmac('sha256', validationKey).update(`open:${recipientId}`).digest('hex').slice(0, 32);
}

/** Beyond Ghost (which counts opens from Mailgun's events): `<site>/email/open/<recipient>/<key>/`, a 1×1 image. */
export function openPixelUrl(siteUrl: string, recipientId: string, validationKey: string): string {
  return new URL(`email/open/${recipientId}/${openKey(recipientId, validationKey)}/`, siteUrl).href;
}
