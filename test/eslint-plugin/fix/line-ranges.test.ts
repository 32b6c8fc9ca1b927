import { describe, expect, it } from 'vitest';
import { getOwnLinesRange } from '../../../eslint-plugin/src/fix';
import { textOf } from '../harness';

describe('getOwnLinesRange', () => {
  const code = 'a();\n  b();\nc(); d();\n  e(\n    1,\n  );\nlast();';

  function rangeOf(snippet: string): [number, number] | undefined {
    const start = code.indexOf(snippet);
    return getOwnLinesRange(code, start, start + snippet.length);
  }

  it('takes the whole line, indentation and line break included, when the span has it to itself', () => {
    const range = rangeOf('b();');
    expect(range && textOf(code, range)).toBe('  b();\n');
  });

  it('takes every line of a span over several lines', () => {
    const range = rangeOf('e(\n    1,\n  );');
    expect(range && textOf(code, range)).toBe('  e(\n    1,\n  );\n');
  });

  it('is undefined when other code shares the line, before or after', () => {
    expect(rangeOf('c();')).toBeUndefined();
    expect(rangeOf('d();')).toBeUndefined();
  });

  it('is undefined on the last line, which has no line break', () => {
    expect(rangeOf('last();')).toBeUndefined();
  });
});
