/** Ghost's role fixtures, in the order Ghost lists them (migration 0001 seeds its own frozen copy). */
export const ROLE_FIXTURES = [
  { name: 'Administrator', description: 'Administrators' },
  { name: 'Editor', description: 'Editors' },
  { name: 'Author', description: 'Authors' },
  { name: 'Contributor', description: 'Contributors' },
  { name: 'Owner', description: 'Blog Owner' },
  { name: 'Admin Integration', description: 'External Apps' },
  { name: 'Ghost Explore Integration', description: 'Internal Integration for the Ghost Explore directory' },
  { name: 'Self-Serve Migration Integration', description: 'Internal Integration for the Self-Serve migration tool' },
  { name: 'DB Backup Integration', description: 'Internal DB Backup Client' },
  { name: 'Scheduler Integration', description: 'Internal Scheduler Client' },
  { name: 'Super Editor', description: 'Super Editors' },
] as const;

export type RoleName = (typeof ROLE_FIXTURES)[number]['name'];

/** The owner user exists from the first migration with Ghost's fixture id. */
export const OWNER_USER_ID = '1';
