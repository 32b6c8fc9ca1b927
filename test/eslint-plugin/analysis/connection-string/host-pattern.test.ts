import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchHostPattern } from '../../../../eslint-plugin/src/analysis/connection-string/host-pattern';

describe('matchHostPattern', () => {
  it('matches `*` (any run), `?` (one character) and the rest literally, case-insensitively, on the whole host', () => {
    expect(matchHostPattern('*.db.internal.example.com', 'orders.db.internal.example.com')).toBe(true);
    expect(matchHostPattern('*.db.internal.example.com', 'ORDERS.DB.INTERNAL.EXAMPLE.COM')).toBe(true);
    expect(matchHostPattern('*.db.internal.example.com', 'db.internal.example.com.evil')).toBe(false);
    expect(matchHostPattern('localhost:2701?', 'localhost:27018')).toBe(true);
    expect(matchHostPattern('localhost:2701?', 'localhost:270188')).toBe(false);
    expect(matchHostPattern('db-*-?.example.com', 'db-east-1.example.com')).toBe(true);
    expect(matchHostPattern('*', '')).toBe(true);
    expect(matchHostPattern('', '')).toBe(true);
    expect(matchHostPattern('a', '')).toBe(false);
    expect(matchHostPattern('a.b', 'axb')).toBe(false);
    expect(matchHostPattern('[::1]:27018', '[::1]:27018')).toBe(true);
  });

  it('agrees with the regular expression a glob stands for', () => {
    const toRegExp = (pattern: string) =>
      new RegExp(`^${[...pattern].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('')}$`, 's');
    const alphabet = fc.constantFrom('a', 'b', '.', ':', '*', '?');
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', '.', ':'), maxLength: 12 }), (pattern, host) => {
        expect(matchHostPattern(pattern, host)).toBe(toRegExp(pattern).test(host));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers `*a*a*a*a*a*a*a*a*c` against a 64-character host without backtracking through every placement', () => {
    const work = { steps: 0 };
    expect(matchHostPattern('*a*a*a*a*a*a*a*a*c', 'a'.repeat(64), work)).toBe(false);
    // At most the pattern's length times the host's; a backtracking regular expression
    // tries every way of placing the eight `a`s (billions).
    expect(work.steps).toBeLessThanOrEqual(18 * 64);
    const longer = { steps: 0 };
    expect(matchHostPattern('*a*a*a*a*a*a*a*a*c', 'a'.repeat(128), longer)).toBe(false);
    expect(longer.steps / work.steps).toBeLessThan(4.5);
  });
});
