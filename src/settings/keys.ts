/**
 * The settings the code reads today, each with Ghost's group and the value a missing row reads as
 * (Ghost's default-settings.json). Keys seeded by migration 0001 are stored from the first start; the
 * others (`comments_enabled`, `outbound_link_tagging`) read as their default until the settings API writes
 * them. The full list arrives with the settings issue.
 */
export const SETTINGS = {
  db_hash: { group: 'core', default: null },
  admin_session_secret: { group: 'core', default: null },
  site_uuid: { group: 'core', default: null },
  title: { group: 'site', default: 'Ghost' },
  description: { group: 'site', default: 'Thoughts, stories and ideas.' },
  logo: { group: 'site', default: null },
  icon: { group: 'site', default: null },
  cover_image: { group: 'site', default: 'https://static.ghost.org/v5.0.0/images/publication-cover.jpg' },
  accent_color: { group: 'site', default: '#FF1A75' },
  locale: { group: 'site', default: 'en' },
  timezone: { group: 'site', default: 'Etc/UTC' },
  members_signup_access: { group: 'members', default: 'all' },
  require_email_mfa: { group: 'members', default: 'false' },
  comments_enabled: { group: 'comments', default: 'off' },
  outbound_link_tagging: { group: 'analytics', default: 'true' },
} as const satisfies Record<string, { group: string; default: string | null }>;

export type SettingKey = keyof typeof SETTINGS;
