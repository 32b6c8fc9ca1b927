import { describe, expect, it } from 'vitest';
import { getUuidGenerator } from '../../../eslint-plugin/src/fix';
import { inFile, type AnalyseOptions } from '../harness';

function generatorAtEnd(code: string, options: AnalyseOptions = {}): string | undefined {
  return inFile(code, (sourceCode) => getUuidGenerator(sourceCode, sourceCode.ast.body.at(-1) ?? sourceCode.ast), options);
}

describe('getUuidGenerator', () => {
  it('uses an imported randomUUID', () => {
    expect(generatorAtEnd("import { randomUUID } from 'node:crypto';\nrun();\n")).toBe('randomUUID()');
    expect(generatorAtEnd("const { randomUUID } = require('crypto');\nrun();\n", { sourceType: 'commonjs' })).toBe('randomUUID()');
  });

  it('uses the global crypto otherwise, or an imported crypto module', () => {
    expect(generatorAtEnd('run();\n')).toBe('crypto.randomUUID()');
    expect(generatorAtEnd("import crypto from 'crypto';\nrun();\n")).toBe('crypto.randomUUID()');
  });

  it('gives up when another crypto hides the global', () => {
    expect(generatorAtEnd("import crypto from 'crypto-js';\nrun();\n")).toBeUndefined();
  });

  it('does not take a randomUUID from another module', () => {
    expect(generatorAtEnd("import { randomUUID } from 'uuid-lib';\nrun();\n")).toBe('crypto.randomUUID()');
  });
});
