import type { Migration } from 'kysely';
import type { ColumnTypes } from '../engine.js';

/** A migration, built for the engine's column types. Its own file so migrations and the list of them do not import each other. */
export type MigrationFactory = (types: ColumnTypes) => Migration;
