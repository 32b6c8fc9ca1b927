import { describe, expect, it } from 'vitest';
import { isTestFilePath } from '../../eslint-plugin/src/test-files';

describe('isTestFilePath', () => {
  it.each(['src/orders.test.ts', 'orders.spec.mjs', 'a/b/__tests__/db.ts', 'test/helpers.js', 'packages/api/tests/setup.ts', 'src/__mocks__/pg.ts', 'fixtures/seed.ts', 'test\\win.ts', '/abs/test/x.ts', '.hidden/test/x.ts'])(
    'matches %s',
    (file) => expect(isTestFilePath(file)).toBe(true),
  );

  it.each(['src/orders.ts', 'src/testing/db.ts', 'src/contest.ts', 'src/latest.test-data.ts', 'fixture/seed.ts', 'spec/helpers.ts', 'src/tests.ts'])('does not match %s', (file) =>
    expect(isTestFilePath(file)).toBe(false),
  );
});
