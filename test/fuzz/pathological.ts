// Large and pathological inputs, for the time bound: long lines of bare or half-written
// connection strings, open templates, host patterns that invite backtracking, files with
// thousands of findings or retried inserts, deep nesting, huge URIs in log lines. Each is
// written as a recipe (pieces and how often each repeats), so a failing one is stored small.
import fc from 'fast-check';
import { engineArb } from './documents';
import type { FuzzInput } from './input';

export type Recipe = Array<[piece: string, times: number]>;

export function expandRecipe(recipe: Recipe): string {
  return recipe.map(([piece, times]) => piece.repeat(times)).join('');
}

export const SHAPES = [
  'bare-tokens', 'open-templates', 'hosts-pattern', 'many-inserts', 'many-findings', 'long-uri-log', 'long-password',
  'many-options', 'many-hosts', 'long-line-code', 'deep-nesting', 'many-retry-loops',
] as const;
export type Shape = (typeof SHAPES)[number];

interface Built {
  filename: string;
  recipe: Recipe;
  settings?: unknown;
  parser?: 'espree' | 'typescript';
  log?: boolean;
}

const DOCDB = 'x.cluster-a.eu-west-1.docdb.amazonaws.com';

/** Code is parsed before the rules run: beyond this size the parser's time, not the plugin's, would fill the bound. */
const MAX_CODE_SIZE = 262_144;
const CODE_SHAPES: readonly Shape[] = ['many-inserts', 'long-line-code', 'deep-nesting', 'many-retry-loops'];

/** One shape at about `size` characters (`variant` picks among its forms). */
export function buildShape(shape: Shape, requestedSize: number, variant: number): Built {
  const size = CODE_SHAPES.includes(shape) ? Math.min(requestedSize, MAX_CODE_SIZE) : requestedSize;
  switch (shape) {
    case 'bare-tokens': {
      const kinds: Array<[string, string, string]> = [['notes.txt', '', ''], ['config.json', '{"a": "', '"}'], ['.env', 'A=', '\n'], ['values.yaml', 'a: ', '\n']];
      const [filename, before, after] = kinds[variant % kinds.length]!;
      return { filename, recipe: [[before, 1], ['mongodb://h ', Math.ceil(size / 12)], [after, 1]] };
    }
    case 'open-templates': {
      const piece = variant % 2 === 0 ? 'mongodb://{{' : 'mongodb://${';
      if (variant % 3 === 2) return { filename: 'src/open.js', parser: 'espree', recipe: [['const a = "', 1], [piece, Math.ceil(Math.min(size, MAX_CODE_SIZE) / piece.length)], ['";\n', 1]] };
      return { filename: '.env', recipe: [['A=', 1], [piece, Math.ceil(size / piece.length)], ['\n', 1]] };
    }
    case 'hosts-pattern': {
      const stars = 6 + (variant % 8);
      return { filename: '.env', settings: { documentdb: { engineVersion: '5.0.0', hosts: [`${'*a'.repeat(stars)}*c`] } }, recipe: [['MONGO_URL=mongodb://', 1], ['a', 64], ['/?retryWrites=false\n', 1]] };
    }
    case 'many-inserts': {
      const method = '  async save(doc) {\n    for (let a = 0; a < 3; a++) {\n      try { await orders.insertOne({ total: 1 }); return; } catch (e) { await sleep(100 * 2 ** a); }\n    }\n  }\n';
      return {
        filename: variant % 2 === 0 ? 'src/repo.ts' : 'src/repo.js',
        parser: variant % 2 === 0 ? 'typescript' : 'espree',
        recipe: [["import { MongoClient } from 'mongodb';\nconst orders = new MongoClient('mongodb://h').db().collection('o');\nconst sleep = (ms) => new Promise((r) => setTimeout(r, ms));\nexport class Repo {\n", 1], [method, Math.ceil(size / method.length)], ['}\n', 1]],
      };
    }
    case 'many-findings': {
      const line = `MONGO_URL=mongodb://app:pw@${DOCDB}:27017/?tls=true&retryWrites=false\n`;
      return { filename: variant % 2 === 0 ? '.env' : 'settings.ini', settings: { documentdb: { engineVersion: '8.0.2' } }, recipe: [[line, Math.ceil(size / line.length)]] };
    }
    case 'long-uri-log': {
      const forms: Recipe[] = [
        [['Skipped untitled:mongodb://app:', 1], ['p', size], ['@h/db: binary content.', 1]],
        [['Linting mongodb://', 1], ['a', size], [' failed', 1]],
        [['Skipped mongodb://u:', 1], ['p@', Math.ceil(size / 2)], ['h: binary content.', 1]],
        [['x ', 1], ['mongodb://a:b', Math.ceil(size / 13)], ['@h', 1]],
      ];
      return { filename: '', log: true, recipe: forms[variant % forms.length]! };
    }
    case 'long-password':
      return { filename: '.env', settings: { documentdb: { engineVersion: '5.0.0' } }, recipe: [['MONGO_URL=mongodb://u:', 1], ['p@', Math.ceil(size / 2)], [`${DOCDB}/?tls=true\n`, 1]] };
    case 'many-options':
      return { filename: 'config.json', settings: { documentdb: { engineVersion: '8.0.2' } }, recipe: [[`{"url": "mongodb://${DOCDB}/?`, 1], ['w=1&', Math.ceil(size / 4)], ['retryWrites=false"}\n', 1]] };
    case 'many-hosts':
      return { filename: 'config.yaml', recipe: [['url: mongodb://', 1], ['h:27017,', Math.ceil(size / 8)], [`${DOCDB}/?retryWrites=false\n`, 1]] };
    case 'long-line-code':
      return { filename: 'src/big.ts', parser: 'typescript', recipe: [["const s = '", 1], ['mongodb://h ', Math.ceil(size / 12)], ["';\n", 1]] };
    case 'deep-nesting': {
      const depth = Math.min(1500, Math.ceil(size / 64));
      const forms: Recipe[] = [
        [['const x = ', 1], ['(', depth], ['1', 1], [')', depth], [';\n', 1]],
        [['async function f(c) {\n', 1], ['if (c) {\n', depth], ['await c.insertOne({});\n', 1], ['}\n', depth], ['}\n', 1]],
        [['const x = ', 1], ['[', depth], [']', depth], [';\n', 1]],
        [["import { MongoClient } from 'mongodb';\nconst c = new MongoClient('mongodb://h').db().collection('o');\nconst x = 0", 1], [' + 1', depth * 4], [';\n', 1]],
      ];
      return { filename: 'src/deep.js', parser: variant % 2 === 0 ? 'espree' : 'typescript', recipe: forms[variant % forms.length]! };
    }
    case 'many-retry-loops': {
      const loop = '  for (let a = 0; a < 5; a++) { try { await pool.query("SELECT 1"); break; } catch (e) { await sleep(100); } }\n';
      return { filename: 'src/loops.ts', parser: 'typescript', recipe: [["import { Pool } from 'pg';\nconst pool = new Pool();\nconst sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));\nexport async function run() {\n", 1], [loop, Math.ceil(size / loop.length)], ['}\n', 1]] };
    }
  }
}

/** A pathological input of `shape` (any when not given) of up to `maxSize` characters, the largest size most often. */
export function pathologicalArb(maxSize: number, shape?: Shape): fc.Arbitrary<FuzzInput> {
  const sizes = [16_384, 65_536, 262_144, 1_048_576].filter((size) => size <= maxSize);
  const largest = sizes.at(-1) ?? maxSize;
  return fc.noShrink(
    fc
      .record({ shape: shape ? fc.constant(shape) : fc.constantFrom(...SHAPES), size: fc.constantFrom(...sizes, largest, largest), variant: fc.nat(), engine: engineArb })
      .map(({ shape, size, variant, engine }) => toInput(shape, size, variant, engine)),
  );
}

export function toInput(shape: Shape, size: number, variant: number, engine: FuzzInput['engine']): FuzzInput {
  const built = buildShape(shape, size, variant);
  const text = expandRecipe(built.recipe);
  return {
    family: 'pathological',
    filename: built.filename,
    text: built.log ? '' : text,
    ...(built.log ? { logLines: [text] } : {}),
    settings: built.settings,
    engine,
    parser: built.parser,
    sourceType: 'module',
    secrets: [],
    templates: [],
    uris: [],
    origin: `${shape} (${text.length} characters, variant ${variant})`,
    recipe: built.recipe,
  };
}
