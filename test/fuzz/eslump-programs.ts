// Random JavaScript from eslump (shift-fuzzer ASTs printed with random parentheses,
// comments and white space), with database snippets spliced in. eslump draws from
// `Math.random`; it is replaced by a generator seeded from fast-check for the call, so a
// run is repeated exactly by its seed. eslump does not know early errors (a redeclared
// `let`, duplicate parameters): such programs are parse errors, counted, not failures.
import fc from 'fast-check';
import { generateRandomJS } from 'eslump';
import { settingsArb } from './connection-strings';
import { engineArb } from './documents';
import type { FuzzInput } from './input';
import type { ParserName, SourceType } from './lint';
import { spliceSnippet } from './mutations';
import { snippetArb } from './programs';
import { findSites } from './sites';
import { mulberry32 } from '../seeded-random';

/** `generate()` with `Math.random` seeded for its duration. */
export function withSeededMathRandom<T>(seed: number, generate: () => T): T {
  const original = Math.random;
  Math.random = mulberry32(seed);
  try {
    return generate();
  } finally {
    Math.random = original;
  }
}

export const eslumpArb: fc.Arbitrary<FuzzInput> = fc.noShrink(
  fc
  .record({
    seed: fc.integer(),
    script: fc.boolean(),
    maxDepth: fc.integer({ min: 2, max: 6 }),
    comments: fc.boolean(),
    whitespace: fc.boolean(),
    snippets: fc.array(fc.tuple(snippetArb, fc.nat()), { maxLength: 3 }),
    parser: fc.constantFrom<ParserName>('espree', 'typescript'),
    settings: settingsArb,
    engine: engineArb,
  })
  .map(({ seed, script, maxDepth, comments, whitespace, snippets, parser, settings, engine }) => {
    let text = withSeededMathRandom(seed, () => generateRandomJS({ sourceType: script ? 'script' : 'module', maxDepth, comments, whitespace }));
    snippets.forEach(([snippet, at], index) => {
      text = spliceSnippet(text, findSites(text, false), snippet, at, script, index);
    });
    const sourceType: SourceType = script ? 'commonjs' : 'module';
    return {
      family: 'eslump',
      filename: script ? 'src/random.cjs' : 'src/random.mjs',
      parser,
      sourceType,
      text,
      settings: settings.settings,
      engine,
      secrets: [...snippets.flatMap(([snippet]) => snippet.secrets), ...settings.secrets],
      passwords: snippets.flatMap(([snippet]) => snippet.passwords),
      templates: [...new Set(snippets.flatMap(([snippet]) => snippet.templates))],
      uris: [],
      origin: `eslump seed ${seed} (${script ? 'script' : 'module'}, depth ${maxDepth}) + ${snippets.length} snippet(s)`,
    } satisfies FuzzInput;
  }),
);
