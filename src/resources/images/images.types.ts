import type { UploadKind } from '../../http/upload.js';

export const IMAGE_UPLOAD: UploadKind = {
  extensions: ['.jpg', '.jpeg', '.gif', '.png', '.svg', '.svgz', '.ico', '.webp'],
  contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/svg+xml', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/webp'],
  missing: 'Please select an image.',
  invalid: 'Please select a valid image.',
};

export const MEDIA_UPLOAD: UploadKind = {
  extensions: ['.mp4', '.webm', '.ogv', '.mp3', '.wav', '.ogg', '.m4a'],
  contentTypes: [
    'video/mp4',
    'video/webm',
    'video/ogg',
    'audio/mpeg',
    'audio/vnd.wav',
    'audio/wave',
    'audio/wav',
    'audio/x-wav',
    'audio/ogg',
    'audio/mp4',
    'audio/x-m4a',
  ],
  missing: 'Please select a media file.',
  invalid: 'Please select a valid media file.',
};

/** A media upload's optional poster image (`thumbnail` field): Ghost's image list, its own messages. */
export const THUMBNAIL_UPLOAD: UploadKind = {
  ...IMAGE_UPLOAD,
  missing: 'Please select a thumbnail.',
  invalid: 'Please select a valid thumbnail.',
};
