import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { getPropertyKeyName, getUpdateIdempotency, hasOnlyUpdateOperators } from '../../../../eslint-plugin/src/analysis/clients/update-operators';

function expression(code: string): TSESTree.Expression {
  const statement = parse(`(${code})`, { range: true, loc: true }).body[0] as TSESTree.ExpressionStatement;
  return statement.expression;
}

describe('getUpdateIdempotency', () => {
  it.each([
    ['{ $set: { status: "done", at: new Date() } }'],
    ['{ $unset: { tmp: "" }, $setOnInsert: { createdAt: now } }'],
    ['{ "$set": { a: 1 }, $addToSet: { tags: { $each: ["a", "b"] } } }'],
    ['{ $pull: { tags: "old" }, $pullAll: { ids: [1] } }'],
    ['{ $min: { low: 1 }, $max: { high: 9 }, $rename: { a: "b" } }'],
    ['[{ $set: { status: "done", at: new Date(), tags: ["a"], price: { $literal: "$5" } } }, { $unset: ["tmp"] }]'],
  ])('%s is idempotent', (code) => {
    expect(getUpdateIdempotency(expression(code))).toEqual({ isIdempotent: true, nonIdempotentOperators: [] });
  });

  it.each([
    ['{ $inc: { n: 1 } }', ['$inc']],
    ['{ $set: { a: 1 }, $push: { log: "x" }, $mul: { p: 2 } }', ['$push', '$mul']],
    ['{ $currentDate: { seenAt: true }, $inc: { n: 1 }, $inc: { m: 1 } }', ['$currentDate', '$inc']],
    ['{ $pop: { q: 1 }, $bit: { f: { xor: 1 } } }', ['$pop', '$bit']],
    ['[{ $set: { n: { $add: ["$n", 1] } } }]', ['pipeline']],
    ['[{ $set: { copy: "$original" } }]', ['pipeline']],
    ['[{ $set: { a: 1 } }, { $replaceWith: "$$ROOT" }]', ['pipeline']],
    ['{ ...base, $inc: { n: 1 } }', ['$inc']],
  ])('%s is not idempotent because of %j', (code, operators) => {
    expect(getUpdateIdempotency(expression(code))).toEqual({ isIdempotent: false, nonIdempotentOperators: operators });
  });

  it.each([['[{ $set: { a: value } }]'], ['[]'], ['[stage]'], ['update'], ['{}'], ['{ ...base }'], ['{ $set: {}, [key]: 1 }'], ['{ $newOperator: {} }'], ['{ status: "x" }'], ['"text"']])(
    '%s cannot be told',
    (code) => {
      expect(getUpdateIdempotency(expression(code))).toEqual({ isIdempotent: undefined, nonIdempotentOperators: [] });
    },
  );

  it('handles a missing argument', () => {
    expect(getUpdateIdempotency(undefined).isIdempotent).toBeUndefined();
  });
});

describe('hasOnlyUpdateOperators', () => {
  it('is true only for non-empty objects made of known operators', () => {
    expect(hasOnlyUpdateOperators(expression('{ $set: { a: 1 }, "$inc": { n: 1 } }'))).toBe(true);
    expect(hasOnlyUpdateOperators(expression('{ $set: { a: 1 }, b: 2 }'))).toBe(false);
    expect(hasOnlyUpdateOperators(expression('{}'))).toBe(false);
    expect(hasOnlyUpdateOperators(expression('{ ...x }'))).toBe(false);
    expect(hasOnlyUpdateOperators(expression('{ where: {}, data: {} }'))).toBe(false);
    expect(hasOnlyUpdateOperators(expression('[{ $set: {} }]'))).toBe(false);
    expect(hasOnlyUpdateOperators(undefined)).toBe(false);
  });
});

describe('getPropertyKeyName', () => {
  it('reads keys written as identifiers or strings, computed strings included', () => {
    const object = expression('{ $set: { a: 1 }, "$inc": { n: 1 }, [\'$push\']: { log: 1 }, [op]: 1, 42: "x", [`$pop`]: 1 }') as TSESTree.ObjectExpression;
    const names = object.properties.map((property) => (property.type === 'Property' ? getPropertyKeyName(property) : 'spread'));
    expect(names).toEqual(['$set', '$inc', '$push', undefined, undefined, undefined]);
  });
});
