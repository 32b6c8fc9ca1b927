import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, it } from 'vitest';
import { type FileHelper, getFileHelper, getFileHelpers, readCodeStyle } from '../../../eslint-plugin/src/fix';
import { applyFix, inFile, type AnalyseOptions } from '../harness';

/** `sleep(ms)`, written with types in TypeScript. */
const SLEEP: FileHelper = {
  name: 'sleep',
  parameterCount: 1,
  getDeclaration: (name, style) =>
    `function ${name}(ms${style.typescript ? ': number' : ''}) {\n  return new Promise((resolve) => setTimeout(resolve, ms, 'done'));\n}`,
};
const CHECK: FileHelper = { name: 'isTransient', parameterCount: 1, getDeclaration: (name) => `function ${name}(error) {\n  return Boolean(error);\n}` };

/** The code after adding (or reusing) the helpers at the last statement; with the names to call. */
function useHelpers(code: string, helpers: FileHelper[], options: AnalyseOptions = {}): { output: string | undefined; names: string[] } {
  let names: string[] = [];
  const output = applyFix(
    code,
    (sourceCode, context) => {
      const at = sourceCode.ast.body.at(-1) as TSESTree.Node;
      const access = getFileHelpers(context, helpers, at);
      names = access.names;
      return access.added ? (fixer) => access.fixes(fixer) : null;
    },
    options,
  );
  return { output, names };
}

describe('getFileHelpers', () => {
  it('adds a declaration after the imports, in the style of a TypeScript module', () => {
    const { output, names } = useHelpers("import { x } from 'y';\nimport z from 'z';\n\nawait run();\n", [SLEEP]);
    expect(names).toEqual(['sleep']);
    expect(output).toBe(
      "import { x } from 'y';\nimport z from 'z';\n\nfunction sleep(ms: number) {\n  return new Promise((resolve) => setTimeout(resolve, ms, 'done'));\n}\n\nawait run();\n",
    );
  });

  it('follows a CommonJS file: after the requires and the directive, without types, with its quotes, semicolons and indentation', () => {
    const code = '"use strict"\nconst { Pool } = require("pg")\nfunction run() {\n    return 1\n}\n';
    const { output } = useHelpers(code, [SLEEP], { language: 'javascript', sourceType: 'commonjs' });
    expect(output).toBe(
      '"use strict"\nconst { Pool } = require("pg")\n\nfunction sleep(ms) {\n    return new Promise((resolve) => setTimeout(resolve, ms, "done"))\n}\n\nfunction run() {\n    return 1\n}\n',
    );
  });

  it('goes first in a file with no import, and adds several helpers in one edit', () => {
    const { output, names } = useHelpers('run();\n', [SLEEP, CHECK], { language: 'javascript' });
    expect(names).toEqual(['sleep', 'isTransient']);
    expect(output).toBe(
      "function sleep(ms) {\n  return new Promise((resolve) => setTimeout(resolve, ms, 'done'));\n}\n\nfunction isTransient(error) {\n  return Boolean(error);\n}\n\nrun();\n",
    );
  });

  it('reuses a function of the same name and shape, declared or imported', () => {
    expect(useHelpers('const sleep = (ms) => new Promise((r) => setTimeout(r, ms));\nrun();\n', [SLEEP])).toEqual({ output: undefined, names: ['sleep'] });
    expect(useHelpers("import { sleep } from './time';\nrun();\n", [SLEEP])).toEqual({ output: undefined, names: ['sleep'] });
  });

  it('picks a fresh name when the name is taken by something else', () => {
    const { output, names } = useHelpers('const sleep = 5;\nrun(sleep);\n', [SLEEP], { language: 'javascript' });
    expect(names).toEqual(['sleep2']);
    expect(output).toContain('function sleep2(ms) {');
    expect(useHelpers('function sleep(a, b) {}\nrun();\n', [SLEEP], { language: 'javascript' }).names).toEqual(['sleep2']);
  });

  it('getFileHelper says whether it adds a declaration', () => {
    let result: boolean | undefined;
    applyFix('function isTransient(e) { return true; }\nrun();\n', (sourceCode, context) => {
      result = getFileHelper(context, CHECK, sourceCode.ast.body.at(-1) as TSESTree.Node).added;
      return null;
    });
    expect(result).toBe(false);
  });
});

describe('readCodeStyle', () => {
  it('reads quotes, semicolons, indentation and TypeScript', () => {
    expect(inFile("const a = 'x';\nif (a) {\n    run();\n}\n", (sourceCode) => readCodeStyle(sourceCode, 'a.ts'))).toEqual({
      quote: "'",
      semicolons: true,
      indentUnit: '    ',
      typescript: true,
    });
    expect(inFile('const a = "x"\nif (a) {\n\trun()\n}\n', (sourceCode) => readCodeStyle(sourceCode, 'a.js'), { language: 'javascript' })).toEqual({
      quote: '"',
      semicolons: false,
      indentUnit: '\t',
      typescript: false,
    });
    expect(inFile('', (sourceCode) => readCodeStyle(sourceCode, 'types.d.ts')).typescript).toBe(false);
  });
});
