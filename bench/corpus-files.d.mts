// Types of bench/corpus-files.mjs (plain Node ESM so the benchmark runs without a build).

export interface CorpusPackage {
  name: string;
  database: 'mongodb' | 'dynamodb' | 'postgresql';
  kind: 'library' | 'project';
  include: string[];
}

export interface CorpusFile {
  packageName: string;
  database: CorpusPackage['database'];
  kind: CorpusPackage['kind'];
  path: string;
  relativePath: string;
  text: string;
  lines: number;
  sourceType: 'module' | 'commonjs';
}

export const corpusDir: string;
export const corpusModulesDir: string;
export const maxFileBytes: number;
export const corpusPackages: CorpusPackage[];
export function isMinified(text: string): boolean;
export function stripInlineSourceMap(text: string): string;
export function getExclusionReason(path: string, size: number, readText: () => string): string | undefined;
export function findPackageFiles(packageDir: string, include: string[]): { path: string; relativePath: string }[];
export function isCorpusInstalled(): boolean;
export function ensureCorpusInstalled(options?: { log?: (message: string) => void }): void;
export function getSourceType(path: string, text: string): 'module' | 'commonjs';
export function loadCorpus(filter?: {
  kinds?: CorpusPackage['kind'][];
  databases?: CorpusPackage['database'][];
}): CorpusFile[];
export function getInstalledVersion(name: string): string;
