// Shared by the packaging tests: packing the workspaces as `npm pack` does, installing a
// tarball into a throw-away project the way npm lays it out (offline: the tarball's
// dependencies are linked from the repository's node_modules), running the real
// `eslint` CLI there, and reading the README's marked code blocks.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const repo = path.join(import.meta.dirname, '..', '..');
export const rootModules = path.join(repo, 'node_modules');
export const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');

export interface PackedFile {
  path: string;
  size: number;
}
export interface PackResult {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: PackedFile[];
}

const tempDirs: string[] = [];

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The environment for a child npm: without the variables of an outer `npm test`. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

/**
 * `npm pack` of the given workspaces into `destination`, without the `prepack` build
 * (the suite runs after `npm run build`; the `prepack` scripts are checked on their own).
 */
export function packWorkspaces(workspaces: string[], destination: string): PackResult[] {
  const args = ['pack', ...workspaces.flatMap((workspace) => ['-w', workspace]), '--ignore-scripts', '--json', '--pack-destination', destination];
  const stdout = execFileSync('npm', args, { cwd: repo, encoding: 'utf8', env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(stdout) as PackResult[];
}

/** Unpacks an npm tarball as `node_modules/<name>` of `project` (what `npm install <tarball>` puts there). */
export function extractPackage(tarball: string, project: string): string {
  const staging = mkdtempSync(path.join(project, '.unpack-'));
  execFileSync('tar', ['-xzf', tarball, '-C', staging]);
  const manifest = JSON.parse(readFileSync(path.join(staging, 'package', 'package.json'), 'utf8')) as { name: string };
  const target = path.join(project, 'node_modules', manifest.name);
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(path.join(staging, 'package'), target);
  rmSync(staging, { recursive: true, force: true });
  return target;
}

/** Links `node_modules/<name>` of `project` to the repository's installed copy of the package. */
export function linkFromRepository(name: string, project: string, from = name): void {
  const source = path.join(rootModules, from);
  if (!existsSync(source)) throw new Error(`${from} is not installed in the repository's node_modules`);
  const target = path.join(project, 'node_modules', name);
  if (existsSync(target)) return;
  mkdirSync(path.dirname(target), { recursive: true });
  symlinkSync(source, target, 'dir');
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the project's own `eslint` (as `npx eslint` would) with `args`. */
export function runProjectEslint(project: string, args: string[]): CliRun {
  const bin = path.join(project, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: project, encoding: 'utf8', env: childEnv(), timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The fenced code block right after `<!-- marker -->` in the README. */
export function readmeBlock(marker: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(readme);
  if (!match?.[1]) throw new Error(`README.md has no code block marked <!-- ${marker} -->`);
  return match[1];
}
