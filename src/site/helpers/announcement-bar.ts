import { announcementVisibility } from '../../settings/derived.js';
import { escape } from './env.js';

/**
 * `{{ghost_head}}`'s announcement bar script (Ghost's `getAnnouncementBarHelper`), served by this site from the
 * npm package like Portal: printed when the announcement has content and a visibility, or in a Design screen
 * preview that gives both (then with the previewed text and background, which the script shows as they are).
 */
export function announcementBarScript(siteUrl: string, settings: ReadonlyMap<string, string | null>, preview: string | undefined): string {
  const attributes: [string, string][] = [
    ['announcement-bar', siteUrl],
    ['api-url', new URL('members/api/announcement/', siteUrl).href],
  ];
  if (preview) {
    const asked = new URLSearchParams(preview);
    const announcement = asked.get('announcement');
    if (!announcement || !asked.has('announcement_vis')) return '';
    attributes.push(['announcement', escape(announcement)], ['announcement-background', escape(asked.get('announcement_bg') ?? '')], ['preview', 'true']);
  } else if (!settings.get('announcement_content') || announcementVisibility(settings.get('announcement_visibility')).length === 0) {
    return '';
  }
  const data = attributes.map(([name, value]) => `data-${name}="${value}"`).join(' ');
  return `<script defer src="${siteUrl}public/announcement-bar/announcement-bar.min.js" ${data} crossorigin="anonymous"></script>`;
}
