// The programs the mutation family starts from: the example service (examples/src) and
// the code of the rule tests (every `code` and `output` of test/eslint-plugin/rules,
// with the test files' string constants and concatenations evaluated).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from '@typescript-eslint/parser';
import { Linter } from 'eslint';

export interface Seed {
  /** Where it comes from: `examples/src/db/documentdb-client.ts`, `rules/require-retry-backoff.test.ts#12`. */
  name: string;
  text: string;
  /** Parses as JavaScript (espree) too, so it can be linted as a `.js` file. */
  isJavaScript: boolean;
}

const ROOT = path.join(import.meta.dirname, '..', '..');

function listFiles(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(suffix))
    .sort()
    .map((file) => path.join(dir, file));
}

interface AstNode {
  type: string;
  [key: string]: unknown;
}

/** The string value of a constant expression of string literals, templates, `+` and known constants. */
function evaluate(node: AstNode | undefined, constants: ReadonlyMap<string, string>): string | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? node.value : undefined;
    case 'TemplateLiteral': {
      const quasis = node.quasis as Array<{ value: { cooked: string | null } }>;
      const expressions = node.expressions as AstNode[];
      let value = quasis[0]?.value.cooked ?? undefined;
      for (let index = 0; value !== undefined && index < expressions.length; index++) {
        const part = evaluate(expressions[index], constants);
        const next = quasis[index + 1]?.value.cooked;
        value = part === undefined || next === null || next === undefined ? undefined : value + part + next;
      }
      return value;
    }
    case 'BinaryExpression': {
      if (node.operator !== '+') return undefined;
      const left = evaluate(node.left as AstNode, constants);
      const right = left === undefined ? undefined : evaluate(node.right as AstNode, constants);
      return right === undefined ? undefined : left! + right;
    }
    case 'Identifier':
      return constants.get(node.name as string);
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      return evaluate(node.expression as AstNode, constants);
    default:
      return undefined;
  }
}

/** Every `code:` and `output:` string of a rule test file. */
export function extractTestCode(source: string): string[] {
  const program = parse(source, { range: false, loc: false, sourceType: 'module' }) as unknown as AstNode;
  const constants = new Map<string, string>();
  for (const statement of program.body as AstNode[]) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AstNode | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as AstNode[]) {
      const id = declarator.id as AstNode;
      const value = evaluate(declarator.init as AstNode | undefined, constants);
      if (id.type === 'Identifier' && value !== undefined) constants.set(id.name as string, value);
    }
  }
  const found: string[] = [];
  const stack: unknown[] = [program];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (typeof node !== 'object' || node === null || typeof (node as AstNode).type !== 'string') continue;
    const ast = node as AstNode;
    if (ast.type === 'Property') {
      const key = ast.key as AstNode;
      const name = key.type === 'Identifier' ? key.name : key.value;
      if (name === 'code' || name === 'output') {
        const value = evaluate(ast.value as AstNode, constants);
        if (value !== undefined && value.trim() !== '') found.push(value);
      }
    }
    for (const value of Object.values(ast)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return [...new Set(found)];
}

function parsesAsJavaScript(linter: Linter, text: string): boolean {
  const messages = linter.verify(text, [{ files: ['**/*.js'], languageOptions: { ecmaVersion: 'latest', sourceType: 'module' } }], { filename: 'seed.js' });
  return !messages.some((message) => message.fatal);
}

let cached: Seed[] | undefined;

/** The seeds, read once. */
export function loadSeeds(): Seed[] {
  if (cached) return cached;
  const linter = new Linter({ configType: 'flat' });
  const seeds: Seed[] = [];
  for (const file of listFiles(path.join(ROOT, 'examples', 'src'), '.ts')) {
    const text = readFileSync(file, 'utf8');
    seeds.push({ name: path.relative(ROOT, file), text, isJavaScript: parsesAsJavaScript(linter, text) });
  }
  for (const file of listFiles(path.join(ROOT, 'test', 'eslint-plugin', 'rules'), '.test.ts')) {
    extractTestCode(readFileSync(file, 'utf8')).forEach((text, index) => {
      seeds.push({ name: `${path.relative(path.join(ROOT, 'test', 'eslint-plugin'), file)}#${index}`, text, isJavaScript: parsesAsJavaScript(linter, text) });
    });
  }
  cached = seeds;
  return seeds;
}
