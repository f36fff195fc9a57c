import { describe, expect, it } from 'vitest';
import type { GhostError } from '../errors.js';
import { checkColumns, columnRules } from './column-rules.js';

const RULES = columnRules({
  table: 'things',
  columns: {
    name: { type: 'text', maxLength: 5, nullable: false },
    email: { type: 'text', maxLength: 191, isEmail: true },
    kind: { type: 'enum', values: ['a', 'b'] },
    on: { type: 'boolean' },
  },
});

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return { message: (err as GhostError).message, context: (err as GhostError).context };
  }
  throw new Error('expected a failure');
};

describe('checkColumns', () => {
  it('reports the first failing column in declared order, whatever the input order', () => {
    expect(failure(() => checkColumns(RULES, { kind: 'c', email: 'nope', name: 'toolong' }))).toEqual({
      message: 'Value in [things.name] exceeds maximum length of 5 characters.',
      context: 'things.name',
    });
    expect(failure(() => checkColumns(RULES, { kind: 'c', email: 'nope' }))).toEqual({
      message: 'Validation (isEmail) failed for email',
      context: 'things.email',
    });
    expect(failure(() => checkColumns(RULES, { kind: 'c' }))).toEqual({ message: 'Validation (isIn) failed for kind', context: 'things.kind' });
  });

  it('reads values as the model does: text from numbers, empty nullable text as null, booleans from 0/1/strings', () => {
    expect(checkColumns(RULES, { name: 12, email: '', on: '0' })).toEqual({ name: '12', email: null, on: false });
    expect(failure(() => checkColumns(RULES, { name: {} }))).toEqual({ message: 'Validation (isString) failed for name', context: 'things.name' });
    expect(failure(() => checkColumns(RULES, { name: '' }))).toEqual({ message: 'Value in [things.name] cannot be blank.', context: 'things.name' });
    expect(failure(() => checkColumns(RULES, { on: 'yes' }))).toEqual({
      message: 'Value in [things.on] must be one of true, false, 0 or 1.',
      context: 'things.on',
    });
  });

  it('counts length in code points and leaves unchanged values unchecked when given the stored row', () => {
    expect(checkColumns(RULES, { name: '😀😀😀😀😀' })).toEqual({ name: '😀😀😀😀😀' });
    expect(checkColumns(RULES, { name: 'legacy name', kind: 'a' }, { current: { name: 'legacy name', kind: 'b' } })).toEqual({ kind: 'a' });
  });
});
