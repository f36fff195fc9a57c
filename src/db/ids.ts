import { randomBytes, randomUUID } from 'node:crypto';

// ObjectId layout: 4-byte seconds timestamp, 5 random bytes fixed per process, 3-byte counter.
const processRandom = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

/** A 24-hex ObjectId string, the id format of every Ghost record. */
export function objectId(): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + processRandom + counter.toString(16).padStart(6, '0');
}

export const uuid = randomUUID;

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
