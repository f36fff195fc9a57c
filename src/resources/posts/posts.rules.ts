import { checkColumns, columnRules } from '../../db/column-rules.js';
import type { PostRow } from '../../db/schema.js';
import { errors } from '../../errors.js';

/**
 * The post model's rules on a row about to be stored: the column limits the JSON schema leaves open
 * (the schema allows 2000 characters of title; the model 255) and the status rules.
 */
export const POST_RULES = columnRules({
  table: 'posts',
  columns: {
    title: { type: 'text', maxLength: 255, nullable: false },
    visibility: { type: 'text', maxLength: 50 },
  },
});

/** `feature_image_alt` is a 191-character column where it is stored (the revision first, for lexical posts). */
const ALT = { feature_image_alt: { type: 'text', maxLength: 191 } } as const;
const ALT_RULES = {
  posts_meta: columnRules({ table: 'posts_meta', columns: ALT }),
  post_revisions: columnRules({ table: 'post_revisions', columns: ALT }),
};

export const checkPostColumns = (row: Pick<PostRow, 'title' | 'visibility'>): void => void checkColumns(POST_RULES, row);

export function checkFeatureImageAlt(alt: string | null | undefined, table: keyof typeof ALT_RULES): void {
  checkColumns(ALT_RULES[table], { feature_image_alt: alt });
}

/** Ghost's `times.cannotScheduleAPostBeforeInMinutes` (-2): scheduling up to two minutes in the past is allowed. */
const SCHEDULE_GRACE_MS = 2 * 60 * 1000;

export function checkSchedule(status: string, publishedAt: Date | null, publishedAtChanged: boolean, now: Date): void {
  if (status !== 'scheduled') return;
  if (!publishedAt || Number.isNaN(publishedAt.getTime())) throw errors.validation('Value in published_at cannot be blank.');
  if (publishedAtChanged && publishedAt.getTime() < now.getTime() - SCHEDULE_GRACE_MS) {
    throw errors.validation('Date must be at least -2 minutes in the future.');
  }
}

export function checkStatusChange(previous: string, next: string): void {
  if (next !== previous && next === 'scheduled' && previous === 'published') {
    throw errors.validation('Your post is already published, please reload your page.');
  }
}
