// Every fix and suggestion the rules offer on examples/, applied alone: the result parses,
// its finding is gone and no other finding of ours appears (re-linted with the examples'
// own ESLint configuration); and the TypeScript it leaves type-checks — every edited
// variant is written into a copy of the project next to its original and the real
// `tsc --noEmit` compares each variant's errors with its original's.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckedEdit, checkEdits, tallyCoverage } from '../../bench/fix-checks.mjs';
import { repo } from './project';

const examplesDir = path.join(repo, 'examples');

interface FileEdits {
  file: string;
  edits: CheckedEdit[];
}

describe('fixes and suggestions on examples/', () => {
  let edited: FileEdits[] = [];
  let findings = 0;

  beforeAll(async () => {
    const eslint = new ESLint({ cwd: examplesDir });
    const results = await eslint.lintFiles(['src']);
    const coverage = tallyCoverage(results.flatMap((result) => result.messages));
    findings = [...coverage.values()].reduce((sum, row) => sum + row.findings, 0);
    for (const result of results) {
      const relint = async (text: string) => (await eslint.lintText(text, { filePath: result.filePath }))[0]?.messages ?? [];
      const edits = await checkEdits({ text: result.source ?? '', messages: result.messages, relint });
      if (edits.length > 0) edited.push({ file: result.filePath, edits });
    }
  }, 240_000);

  afterAll(() => {
    edited = [];
  });

  it('applied alone, each parses, clears its finding and adds no other finding of ours', () => {
    const count = edited.reduce((sum, file) => sum + file.edits.length, 0);
    // The examples have findings with and without edits; a run that checked nothing proves nothing.
    expect(findings).toBeGreaterThan(count / 2);
    expect(count).toBeGreaterThanOrEqual(15);
    const failing = edited.flatMap(({ file, edits }) =>
      edits.filter((edit) => edit.failures.length > 0).map((edit) => `${path.relative(repo, file)}:${edit.line} ${edit.rule} "${edit.title}": ${edit.failures.join('; ')}`),
    );
    expect(failing).toEqual([]);
  });

  describe('in a TypeScript project, tsc --noEmit', () => {
    let projectDir: string;
    let tscErrors: Map<string, Set<string>>;
    const variants: { variant: string; original: string; edit: CheckedEdit }[] = [];

    beforeAll(() => {
      projectDir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-ts-suggestions-'));
      cpSync(path.join(examplesDir, 'src'), path.join(projectDir, 'src'), { recursive: true });
      cpSync(path.join(examplesDir, 'tsconfig.json'), path.join(projectDir, 'tsconfig.json'));
      symlinkSync(path.join(repo, 'node_modules'), path.join(projectDir, 'node_modules'), 'dir');
      for (const { file, edits } of edited) {
        if (!/\.ts$/.test(file)) continue;
        const original = path.join(projectDir, path.relative(examplesDir, file));
        edits.forEach((edit, index) => {
          // Next to its original, so its relative imports resolve the same way.
          const variant = original.replace(/\.ts$/, `.edit${index}.ts`);
          writeFileSync(variant, edit.text);
          variants.push({ variant, original, edit });
        });
      }
      tscErrors = runTsc(projectDir);
    }, 240_000);

    afterAll(() => {
      if (projectDir) rmSync(projectDir, { recursive: true, force: true });
    });

    it('reports no error in an edited file that its original does not have', () => {
      expect(variants.length).toBeGreaterThanOrEqual(10);
      const failing = variants.flatMap(({ variant, original, edit }) => {
        const before = tscErrors.get(original) ?? new Set<string>();
        return [...(tscErrors.get(variant) ?? [])]
          .filter((error) => !before.has(error))
          .map((error) => `${path.relative(projectDir, original)}:${edit.line} ${edit.rule} "${edit.title}": ${error}`);
      });
      expect(failing).toEqual([]);
    });

    it('sees the errors an edit would bring', () => {
      // The comparison is only worth something if tsc reads the variants: one with a type error must show it.
      const probe = path.join(projectDir, 'src', 'probe.edit0.ts');
      writeFileSync(probe, 'export const n: number = "not a number";\n');
      const errors = runTsc(projectDir).get(probe);
      expect([...(errors ?? [])].join('\n')).toContain('TS2322');
    }, 120_000);
  });
});

/** Runs the real tsc on the project; its errors per file (code and message, without positions). */
function runTsc(projectDir: string): Map<string, Set<string>> {
  const tsc = path.join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  let output = '';
  try {
    // Run in the project so that the paths tsc prints are relative to it, wherever the checkout is.
    output = execFileSync(process.execPath, [tsc, '--noEmit', '--pretty', 'false', '-p', path.join(projectDir, 'tsconfig.json')], { encoding: 'utf8', cwd: projectDir });
  } catch (error) {
    output = (error as { stdout?: string }).stdout ?? '';
  }
  const errors = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of output.split('\n')) {
    const match = /^(.+?)\(\d+,\d+\): error (TS\d+: .*)$/.exec(line);
    if (match) {
      const file = path.resolve(projectDir, match[1]!);
      current = errors.get(file) ?? new Set<string>();
      errors.set(file, current);
      current.add(match[2]!);
    }
  }
  return errors;
}
