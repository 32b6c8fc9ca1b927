// Throw-away projects on disk that use the built plugin from this workspace, linted with
// the real `eslint` CLI the way a user's CI runs it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const repo = path.join(import.meta.dirname, '..', '..');
const rootModules = path.join(repo, 'node_modules');
const tempDirs: string[] = [];

export interface JsonResult {
  filePath: string;
  messages: { ruleId: string | null; line: number; column: number; message: string; fatal?: boolean; suggestions?: { desc: string }[] }[];
}

/** A project folder whose node_modules links the workspace's plugin, the chosen ESLint, the TypeScript parser and `mongodb`. */
export function createProject(files: Record<string, string>, eslintPackage: 'eslint' | 'eslint9'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'retry-safety-cli-'));
  tempDirs.push(dir);
  const modules = path.join(dir, 'node_modules');
  mkdirSync(path.join(modules, '@typescript-eslint'), { recursive: true });
  symlinkSync(path.join(repo, 'eslint-plugin'), path.join(modules, 'eslint-plugin-retry-safety'), 'dir');
  symlinkSync(path.join(rootModules, eslintPackage), path.join(modules, 'eslint'), 'dir');
  symlinkSync(path.join(rootModules, '@typescript-eslint', 'parser'), path.join(modules, '@typescript-eslint', 'parser'), 'dir');
  symlinkSync(path.join(rootModules, 'typescript'), path.join(modules, 'typescript'), 'dir');
  symlinkSync(path.join(rootModules, 'mongodb'), path.join(modules, 'mongodb'), 'dir');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

/** Removes every project made so far. */
export function removeProjects(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs the project's eslint binary; returns its JSON report (exit code 1 just means findings). */
export function runEslint(dir: string, args: string[], env: NodeJS.ProcessEnv = process.env): JsonResult[] {
  const bin = path.join(dir, 'node_modules', 'eslint', 'bin', 'eslint.js');
  let stdout: string;
  try {
    stdout = execFileSync(process.execPath, [bin, '--format', 'json', ...args], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const failure = error as { status?: number; stdout?: string; stderr?: string };
    if (failure.status !== 1) throw new Error(`eslint exited with ${failure.status}: ${failure.stderr}`);
    stdout = failure.stdout ?? '';
  }
  return JSON.parse(stdout) as JsonResult[];
}

export function findingsOf(results: JsonResult[], file: string): JsonResult['messages'] {
  return results.find((result) => result.filePath.endsWith(file))?.messages ?? [];
}
