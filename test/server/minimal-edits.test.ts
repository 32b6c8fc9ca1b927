import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOffsetEdits, computeMinimalEdits } from '../../server/src/minimal-edits';

describe('computeMinimalEdits', () => {
  it('returns no edit for equal texts', () => {
    expect(computeMinimalEdits('a\nb\n', 'a\nb\n')).toEqual([]);
  });

  it('narrows a change inside a long line to the changed characters', () => {
    const before = 'const a = 1;\nconst uri = "mongodb://h/?tls=true&retryWrites=false";\nconst b = 2;\n';
    const after = before.replace('&retryWrites=false', '');
    expect(computeMinimalEdits(before, after)).toEqual([{ start: before.indexOf('&retryWrites'), end: before.indexOf('";'), text: '' }]);
  });

  it('keeps distant changes as separate edits', () => {
    const lines = Array.from({ length: 200 }, (_, index) => `line ${index}`);
    const before = lines.join('\n');
    const changed = [...lines];
    changed[10] = 'line ten';
    changed[150] = 'line one-fifty';
    const edits = computeMinimalEdits(before, changed.join('\n'));
    expect(edits).toHaveLength(2);
    expect(applyOffsetEdits(before, edits)).toBe(changed.join('\n'));
  });

  it('turns any text into any other text', () => {
    const text = fc.array(fc.constantFrom('a', 'b', 'c', '\n', '\r\n', 'xy', ''), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const edits = computeMinimalEdits(before, after);
        expect(applyOffsetEdits(before, edits)).toBe(after);
        for (let index = 1; index < edits.length; index++) expect(edits[index]!.start).toBeGreaterThanOrEqual(edits[index - 1]!.end);
      }),
      { numRuns: 2000 },
    );
  });
});
