// Mutated programs: a seed (the examples, the rule tests' code) changed one to four times —
// statements deleted, duplicated, swapped or wrapped in a retry loop, a transaction or a
// try; database snippets spliced in; strings replaced by hostile connection strings;
// numbers, operators, identifiers, `await`s and object properties changed; and now and
// then the text itself cut or sprinkled with stray characters.
import fc from 'fast-check';
import { type GeneratedUri, settingsArb, uriArb } from './connection-strings';
import { engineArb, toCodeLiteral } from './documents';
import type { FuzzInput } from './input';
import type { ParserName } from './lint';
import { type Snippet, snippetArb } from './programs';
import { loadSeeds } from './seeds';
import { findSites, type Sites } from './sites';

const MUTATIONS = [
  'delete-statement', 'duplicate-statement', 'swap-statements', 'insert-snippet', 'insert-snippet', 'replace-string', 'replace-string',
  'replace-number', 'rename-identifier', 'flip-operator', 'remove-await', 'wrap-statement', 'wrap-statement', 'delete-property',
  'add-property', 'delete-text', 'insert-text', 'truncate',
] as const;
type Mutation = (typeof MUTATIONS)[number];

interface Step {
  mutation: Mutation;
  a: number;
  b: number;
  uri: GeneratedUri;
  quote: "'" | '"' | '`';
  snippet: Snippet;
}

const STRINGS = ['BEGIN', 'COMMIT', 'ROLLBACK', 'error', 'mongodb', 'retryWrites=false', '', 'ConditionalCheckFailedException', '23505', 'orders'];
const NUMBERS = ['0', '1', '-1', '3', '1e9', '0.5', '2 ** 53', 'NaN', '100000', '11000'];
const OPERATORS = ['<', '<=', '>', '>=', '===', '!==', '+', '-', '*', '**', '&&', '||'];
const NAMES = ['client', 'collection', 'orders', 'pool', 'attempt', 'err', 'sleep', 'retry', 'send', 'insertOne', 'updateMany', 'x'];
const PROPERTIES = ['retryWrites: false', 'retryWrites: true', '_id: new ObjectId()', 'maxAttempts: 1', 'maxRetries: 0', 'projection: { _id: 1 }', 'ordered: false', 'forceServerObjectId: true', 'ClientRequestToken: token', '...rest'];
const STRAY = ['{', '}', '(', ')', ';', "'", '`', '/*', '*/', '//', 'await ', 'mongodb://', '${', '\n', '\r\n', '\u2028', '\ufeff', '\u0000', 'retryWrites=false', '@'];

const stepArb: fc.Arbitrary<Step> = fc.record({
  mutation: fc.constantFrom(...MUTATIONS),
  a: fc.nat(),
  b: fc.nat(),
  uri: uriArb,
  quote: fc.constantFrom<"'" | '"' | '`'>("'", '"', '`'),
  snippet: snippetArb,
});

const pick = <T>(items: readonly T[], index: number): T | undefined => (items.length === 0 ? undefined : items[index % items.length]);
const splice = (text: string, start: number, end: number, insert: string) => text.slice(0, start) + insert + text.slice(end);

interface State {
  text: string;
  secrets: string[];
  passwords: string[];
  templates: string[];
  done: string[];
}

/**
 * Adds a snippet's statement at a boundary, and the imports and setup lines the text does
 * not have yet at the top (a second connection-string constant gets a name of its own).
 */
export function spliceSnippet(text: string, sites: Sites | undefined, snippet: Snippet, at: number, commonJs: boolean, index: number): string {
  const statement = snippet.statement.replace(/\bretrySafetyFuzz\b/g, `retrySafetyFuzz${index}`);
  const boundary = pick(sites?.boundaries ?? [text.length], at) ?? text.length;
  const withStatement = splice(text, boundary, boundary, `\n${statement}\n`);
  const header = [...(commonJs ? snippet.cjs : snippet.esm).split('\n'), ...snippet.setup.split('\n')]
    .map((line) => (text.includes('const MONGO_URI =') ? line.replace(/^const MONGO_URI =/, `const MONGO_URI_${index} =`) : line))
    .filter((line) => !text.includes(line));
  const top = sites?.top ?? 0;
  return splice(withStatement, top, top, `${header.join('\n')}\n`);
}

function mutate(state: State, step: Step, jsx: boolean, index: number): void {
  const { text } = state;
  const sites = findSites(text, jsx);
  const { a, b } = step;
  let mutation = step.mutation;
  // Broken text leaves only the text mutations.
  if (!sites && !['delete-text', 'insert-text', 'truncate', 'insert-snippet'].includes(mutation)) mutation = 'insert-text';
  const statements = sites?.statementLists.flat() ?? [];
  let next = text;
  switch (mutation) {
    case 'delete-statement': {
      const range = pick(statements, a);
      if (range) next = splice(text, range[0], range[1], '');
      break;
    }
    case 'duplicate-statement': {
      const range = pick(statements, a);
      if (range) next = splice(text, range[1], range[1], `\n${text.slice(range[0], range[1])}`);
      break;
    }
    case 'swap-statements': {
      const list = pick((sites?.statementLists ?? []).filter((candidate) => candidate.length > 1), a);
      if (list) {
        const first = list[b % (list.length - 1)]!;
        const second = list[(b % (list.length - 1)) + 1]!;
        next = text.slice(0, first[0]) + text.slice(second[0], second[1]) + text.slice(first[1], second[0]) + text.slice(first[0], first[1]) + text.slice(second[1]);
      }
      break;
    }
    case 'insert-snippet':
      next = spliceSnippet(text, sites, step.snippet, a, false, index);
      state.secrets.push(...step.snippet.secrets);
      state.passwords.push(...step.snippet.passwords);
      state.templates.push(...step.snippet.templates);
      break;
    case 'replace-string': {
      const range = pick(sites!.strings, a);
      if (!range) break;
      if (b % 3 === 0) {
        next = splice(text, range[0], range[1], JSON.stringify(pick(STRINGS, b)!));
      } else {
        next = splice(text, range[0], range[1], toCodeLiteral(step.uri.uri, step.quote, step.uri.templates));
        state.secrets.push(...step.uri.secrets);
        if (step.uri.password !== undefined) state.passwords.push(step.uri.password);
        state.templates.push(...step.uri.templates);
      }
      break;
    }
    case 'replace-number': {
      const range = pick(sites!.numbers, a);
      if (range) next = splice(text, range[0], range[1], `(${pick(NUMBERS, b)!})`);
      break;
    }
    case 'rename-identifier': {
      const from = pick(sites!.identifiers, a);
      const to = pick(NAMES, b)!;
      if (from) next = text.replace(new RegExp(`\\b${from.replace(/\$/g, '\\$')}\\b`, 'g'), to);
      break;
    }
    case 'flip-operator': {
      const site = pick(sites!.operators, a);
      if (site) next = splice(text, site.start, site.start + site.operator.length, pick(OPERATORS, b)!);
      break;
    }
    case 'remove-await': {
      const at = pick(sites!.awaits, a);
      if (at !== undefined && text.startsWith('await', at)) next = splice(text, at, at + 'await'.length, '');
      break;
    }
    case 'wrap-statement': {
      const range = pick(statements, a);
      if (!range) break;
      const statement = text.slice(range[0], range[1]);
      const wrappers = [
        `for (let attempt = 0; attempt < 3; attempt++) {\ntry {\n${statement}\nbreak;\n} catch (err) {\nawait new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));\n}\n}`,
        `try {\n${statement}\n} catch {}`,
        `await session.withTransaction(async () => {\n${statement}\n});`,
        `while (true) {\ntry {\n${statement}\nbreak;\n} catch (err) {\nif (err.code === 11000) throw err;\n}\n}`,
        `{\n${statement}\n}`,
      ];
      next = splice(text, range[0], range[1], pick(wrappers, b)!);
      break;
    }
    case 'delete-property': {
      const range = pick(sites!.properties, a);
      if (range) next = splice(text, range[0], text[range[1]] === ',' ? range[1] + 1 : range[1], '');
      break;
    }
    case 'add-property': {
      const at = pick(sites!.objectStarts, a);
      if (at !== undefined) next = splice(text, at, at, ` ${pick(PROPERTIES, b)!},`);
      break;
    }
    case 'delete-text': {
      const start = a % (text.length + 1);
      next = splice(text, start, Math.min(text.length, start + 1 + (b % 20)), '');
      break;
    }
    case 'insert-text': {
      const at = a % (text.length + 1);
      next = splice(text, at, at, pick(STRAY, b)!);
      break;
    }
    case 'truncate':
      next = text.slice(0, a % (text.length + 1));
      break;
  }
  state.text = next;
  state.done.push(mutation);
}

export const mutationArb: fc.Arbitrary<FuzzInput> = fc
  .record({
    seedIndex: fc.nat(),
    steps: fc.array(stepArb, { minLength: 1, maxLength: 4 }),
    javascript: fc.boolean(),
    parser: fc.constantFrom<ParserName>('espree', 'typescript'),
    settings: settingsArb,
    engine: engineArb,
  })
  .map(({ seedIndex, steps, javascript, parser, settings, engine }) => {
    const seeds = loadSeeds();
    const seed = seeds[seedIndex % seeds.length]!;
    // A seed that is JavaScript too is linted as a .js file half the time (espree or the TypeScript parser).
    const asJavaScript = javascript && seed.isJavaScript;
    const filename = asJavaScript ? 'src/mutant.js' : 'src/mutant.ts';
    const state: State = { text: seed.text, secrets: [...settings.secrets], passwords: [], templates: [], done: [] };
    steps.forEach((step, index) => mutate(state, step, false, index));
    return {
      family: 'mutation',
      filename,
      parser: asJavaScript ? parser : 'typescript',
      sourceType: 'module',
      text: state.text,
      settings: settings.settings,
      engine,
      secrets: state.secrets,
      passwords: state.passwords,
      templates: [...new Set(state.templates)],
      uris: [],
      origin: `${seed.name}: ${state.done.join(', ')}`,
    } satisfies FuzzInput;
  });
