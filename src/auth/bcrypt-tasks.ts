import bcrypt from 'bcryptjs';

// Ghost's cost factor: hashes move between Ghost and Quire in both directions.
const ROUNDS = 10;

/*
 * bcrypt as worker tasks (src/worker.ts): one hash costs ~70 ms of CPU, which on the event loop every
 * other request would wait for. Call them through passwords.ts.
 */

export const bcryptHash = (plain: string): Promise<string> => bcrypt.hash(plain, ROUNDS);

export const bcryptCompare = ({ plain, hash }: { plain: string; hash: string }): Promise<boolean> => bcrypt.compare(plain, hash);
