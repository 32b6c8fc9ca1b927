import type { FoundEngineVersion, InfraKind } from './found-version';
import { createLineIndex } from './line-index';

/**
 * `engineVersion` of DocumentDB clusters created in AWS CDK and Pulumi programs:
 *
 * - CDK: `new docdb.DatabaseCluster(this, 'Db', { engineVersion: '5.0.0', … })` and the
 *   L1 `new docdb.CfnDBCluster(…, { engineVersion })` (the CDK takes a plain string; it has
 *   no engine-version class for DocumentDB).
 * - Pulumi: `new aws.docdb.Cluster('db', { engineVersion: '5.0.0' })`, `aws.docdb.GlobalCluster`.
 *
 * The class must come from the DocumentDB module (`aws-cdk-lib/aws-docdb`,
 * `@aws-cdk/aws-docdb`, `@pulumi/aws/docdb`, or `aws_docdb` / `docdb` of `aws-cdk-lib` and
 * `@pulumi/aws`): `rds.DatabaseCluster` and Neptune's, which take an `engineVersion` too,
 * are not DocumentDB. The value is a string literal, or a `const` of the file holding one.
 *
 * Read by a tokenizer rather than a parser: the file may be TypeScript or JavaScript in
 * any dialect, and a parser would need the project's TypeScript. The tokenizer skips
 * comments, strings, template literals (with their `${…}`) and regular expressions, so
 * a cluster in a comment or in a string is not read; one pass, linear in the file.
 */

const DOCDB_MODULES: ReadonlySet<string> = new Set(['aws-cdk-lib/aws-docdb', '@aws-cdk/aws-docdb', '@pulumi/aws/docdb']);
/** Packages whose `aws_docdb` / `docdb` export is the DocumentDB module. */
const PARENT_MODULES: ReadonlySet<string> = new Set(['aws-cdk-lib', '@pulumi/aws']);
const PARENT_EXPORTS: ReadonlySet<string> = new Set(['aws_docdb', 'docdb']);
const CLUSTER_CLASSES: Readonly<Record<string, InfraKind>> = { DatabaseCluster: 'cdk', CfnDBCluster: 'cdk', Cluster: 'pulumi', GlobalCluster: 'pulumi' };
const PROPERTY = 'engineVersion';

/**
 * A code file that may create a cluster names DocumentDB and a package that has it
 * (checked before tokenizing: application code that only holds a DocumentDB host name is
 * not read further). Anchored lookaheads: one pass over the text each.
 */
export const CODE_MARKER = /^(?=[\s\S]*docdb)(?=[\s\S]*(?:aws-cdk-lib|@aws-cdk\/|@pulumi\/aws))/i;

type Token =
  | { type: 'name'; value: string; start: number }
  | { type: 'string'; value: string | undefined; start: number }
  | { type: 'punct'; value: string; start: number };

/** Keywords after which a `/` starts a regular expression. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await']);

/** JavaScript / TypeScript tokens outside comments; template literals with `${}` have no value. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const length = text.length;
  /** Per open `{`: whether it opened a template literal's `${` (the template goes on after its `}`). */
  const braces: boolean[] = [];
  let index = 0;

  const readTemplate = (from: number, start: number, plainSoFar: boolean): number => {
    // From inside a template literal, after its backtick or a `}` that closed a `${`.
    let cursor = from;
    let value = '';
    while (cursor < length) {
      const char = text[cursor]!;
      if (char === '\\') {
        value += text[cursor + 1] ?? '';
        cursor += 2;
      } else if (char === '`') {
        tokens.push({ type: 'string', value: plainSoFar ? value : undefined, start });
        return cursor + 1;
      } else if (char === '$' && text[cursor + 1] === '{') {
        braces.push(true);
        tokens.push({ type: 'string', value: undefined, start });
        return cursor + 2;
      } else {
        value += char;
        cursor++;
      }
    }
    tokens.push({ type: 'string', value: undefined, start });
    return cursor;
  };

  while (index < length) {
    const char = text[index]!;
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      index++;
    } else if (char === '/' && text[index + 1] === '/') {
      const end = text.indexOf('\n', index);
      index = end === -1 ? length : end;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? length : end + 2;
    } else if (char === '"' || char === "'") {
      const start = index;
      let value = '';
      index++;
      while (index < length && text[index] !== char && text[index] !== '\n') {
        if (text[index] === '\\') {
          value += text[index + 1] ?? '';
          index += 2;
        } else {
          value += text[index];
          index++;
        }
      }
      const closed = text[index] === char;
      index++;
      tokens.push({ type: 'string', value: closed ? value : undefined, start });
    } else if (char === '`') {
      index = readTemplate(index + 1, index, true);
    } else if (char === '/' && startsRegex(tokens.at(-1))) {
      index = skipRegex(text, index);
      tokens.push({ type: 'punct', value: 'regex', start: index });
    } else if (/[A-Za-z_$]/.test(char) || char.charCodeAt(0) > 127) {
      const start = index;
      while (index < length && (/[\w$]/.test(text[index]!) || text.charCodeAt(index) > 127)) index++;
      tokens.push({ type: 'name', value: text.slice(start, index), start });
    } else if (/\d/.test(char)) {
      while (index < length && /[\w.]/.test(text[index]!)) index++;
      tokens.push({ type: 'punct', value: 'number', start: index });
    } else if (char === '{') {
      braces.push(false);
      tokens.push({ type: 'punct', value: char, start: index });
      index++;
    } else if (char === '}') {
      if (braces.pop() === true) {
        index = readTemplate(index + 1, index, false);
      } else {
        tokens.push({ type: 'punct', value: char, start: index });
        index++;
      }
    } else {
      tokens.push({ type: 'punct', value: char, start: index });
      index++;
    }
  }
  return tokens;
}

function startsRegex(previous: Token | undefined): boolean {
  if (!previous) return true;
  if (previous.type === 'string') return false;
  if (previous.type === 'name') return BEFORE_REGEX.has(previous.value);
  return !(previous.value === ')' || previous.value === ']' || previous.value === '}' || previous.value === 'number' || previous.value === 'regex');
}

/** From a regular expression's `/` to after its flags; a class `[…]` may hold `/`. Stops at a line break. */
function skipRegex(text: string, start: number): number {
  let index = start + 1;
  let inClass = false;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\n') return index;
    if (char === '\\') index++;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) {
      index++;
      while (index < text.length && /\w/.test(text[index]!)) index++;
      return index;
    }
    index++;
  }
  return index;
}

const isPunct = (token: Token | undefined, value: string): boolean => token?.type === 'punct' && token.value === value;
/** The token is a name (`value`, when given). Not a type guard: a false result says nothing of the token's type. */
const isName = (token: Token | undefined, value?: string): boolean => token?.type === 'name' && (value === undefined || token.value === value);
const nameOf = (token: Token | undefined): string | undefined => (token?.type === 'name' ? token.value : undefined);

interface Bindings {
  /** Local names of the DocumentDB module (`docdb` of `import * as docdb from 'aws-cdk-lib/aws-docdb'`). */
  namespaces: Set<string>;
  /** Local name → class of the DocumentDB module (`import { DatabaseCluster as Db } …`). */
  classes: Map<string, string>;
  /** The file imports a package that has a DocumentDB module: a `….docdb.Cluster` chain may be one. */
  importsParent: boolean;
  /** `const name = '5.0.0'`: name → value and offset; null when declared more than once. */
  constants: Map<string, { value: string; start: number } | null>;
}

/** Names bound by `{ a, b as c }` (import) or `{ a, b: c }` (destructuring), from the `{` at `open`; the index after `}`. */
function readNamedBindings(tokens: Token[], open: number, separator: 'as' | ':'): { names: Array<[string, string]>; end: number } {
  const names: Array<[string, string]> = [];
  let index = open + 1;
  while (index < tokens.length && !isPunct(tokens[index], '}')) {
    const name = nameOf(tokens[index]);
    if (name !== undefined && name !== 'type') {
      const after = tokens[index + 1];
      const local = nameOf(tokens[index + 2]);
      if ((separator === 'as' ? isName(after, 'as') : isPunct(after, ':')) && local !== undefined) {
        names.push([name, local]);
        index += 3;
        continue;
      }
      names.push([name, name]);
    }
    index++;
  }
  return { names, end: index + 1 };
}

function bind(bindings: Bindings, specifier: string | undefined, namespace: string | undefined, named: Array<[string, string]>): void {
  if (specifier === undefined) return;
  if (DOCDB_MODULES.has(specifier)) {
    if (namespace) bindings.namespaces.add(namespace);
    for (const [exported, local] of named) bindings.classes.set(local, exported);
  } else if (PARENT_MODULES.has(specifier)) {
    bindings.importsParent = true;
    for (const [exported, local] of named) if (PARENT_EXPORTS.has(exported)) bindings.namespaces.add(local);
  } else if (specifier.startsWith('aws-cdk-lib/') || specifier.startsWith('@aws-cdk/') || specifier.startsWith('@pulumi/aws')) {
    bindings.importsParent = true;
  }
}

/** Imports, requires and string constants of the file. */
function readBindings(tokens: Token[]): Bindings {
  const bindings: Bindings = { namespaces: new Set(), classes: new Map(), importsParent: false, constants: new Map() };
  for (let index = 0; index < tokens.length; index++) {
    const name = nameOf(tokens[index]);
    if (name === 'import' && !isPunct(tokens[index - 1], '.')) {
      index = readImport(tokens, index, bindings);
    } else if (name === 'const' || name === 'let' || name === 'var') {
      index = readDeclaration(tokens, index, bindings);
    }
  }
  return bindings;
}

/** `import … from 'x'`, `import x = require('x')`; the index of its last token. */
function readImport(tokens: Token[], start: number, bindings: Bindings): number {
  let index = start + 1;
  if (isName(tokens[index], 'type')) return index;
  let namespace: string | undefined;
  let named: Array<[string, string]> = [];
  // A clause is short; a bound keeps a stray `import` from reading far.
  for (const end = Math.min(tokens.length, start + 200); index < end; index++) {
    const token = tokens[index];
    if (isPunct(token, '*') && isName(tokens[index + 1], 'as') && isName(tokens[index + 2])) {
      namespace = nameOf(tokens[index + 2]);
      index += 2;
    } else if (isPunct(token, '{')) {
      const read = readNamedBindings(tokens, index, 'as');
      named = read.names;
      index = read.end - 1;
    } else if (isName(token, 'from')) {
      const specifier = tokens[index + 1];
      bind(bindings, specifier?.type === 'string' ? specifier.value : undefined, namespace, named);
      return index + 1;
    } else if (token?.type === 'name' && isPunct(tokens[index + 1], '=') && isName(tokens[index + 2], 'require')) {
      // `import docdb = require('aws-cdk-lib/aws-docdb')`
      const specifier = tokens[index + 4];
      bind(bindings, specifier?.type === 'string' ? specifier.value : undefined, token.value, []);
      return index + 5;
    } else if (token?.type === 'name' && namespace === undefined && named.length === 0) {
      // A default import: read like a namespace (CommonJS interop).
      namespace = token.value;
    } else if (token?.type === 'string' || isPunct(token, ';')) {
      return index;
    }
  }
  return index;
}

/** `const x = require('…')`, `const { a } = require('…')`, `const x = '5.0.0'`; the index of its last read token. */
function readDeclaration(tokens: Token[], start: number, bindings: Bindings): number {
  let index = start + 1;
  let namespace: string | undefined;
  let named: Array<[string, string]> = [];
  const target = tokens[index];
  if (target?.type === 'name') {
    namespace = target.value;
    index++;
    // `const version: string = …`: a simple type annotation.
    if (isPunct(tokens[index], ':') && isName(tokens[index + 1])) index += 2;
  } else if (isPunct(target, '{')) {
    const read = readNamedBindings(tokens, index, ':');
    named = read.names;
    index = read.end;
  } else {
    return start;
  }
  if (!isPunct(tokens[index], '=')) return index - 1;
  const value = tokens[index + 1];
  if (isName(value, 'require') && isPunct(tokens[index + 2], '(')) {
    const specifier = tokens[index + 3];
    bind(bindings, specifier?.type === 'string' ? specifier.value : undefined, namespace, named);
    return index + 3;
  }
  if (namespace !== undefined && value?.type === 'string' && value.value !== undefined && isValueEnd(tokens, index + 2)) {
    const known = bindings.constants.has(namespace);
    bindings.constants.set(namespace, known ? null : { value: value.value, start: value.start });
  }
  return index;
}

/** The value ends here: `,`, `;`, `}`, `)`, `as const`, or a new statement on the next line. */
function isValueEnd(tokens: Token[], index: number): boolean {
  const next = tokens[index];
  if (!next) return true;
  if (isName(next, 'as')) return isName(tokens[index + 1], 'const') && isValueEnd(tokens, index + 2);
  if (next.type !== 'punct') return true;
  return next.value === ',' || next.value === ';' || next.value === '}' || next.value === ')';
}

/** The engine versions of the DocumentDB clusters the program creates. */
export function findCodeEngineVersions(text: string, file: string): FoundEngineVersion[] {
  if (!CODE_MARKER.test(text)) return [];
  const tokens = tokenize(text);
  const bindings = readBindings(tokens);
  if (bindings.namespaces.size === 0 && bindings.classes.size === 0 && !bindings.importsParent) return [];
  const lineOf = createLineIndex(text);
  const found: FoundEngineVersion[] = [];
  for (let index = 0; index < tokens.length; index++) {
    if (!isName(tokens[index], 'new')) continue;
    const construct = readConstructor(tokens, index + 1, bindings);
    if (!construct) continue;
    const { open, kind, resource } = construct;
    index = readArguments(tokens, open, (value) => {
      const resolved = resolveValue(value, bindings);
      if (resolved) found.push({ version: resolved.value, file, line: lineOf(resolved.start), kind, resource });
    });
  }
  return found;
}

/** After `new`: a DocumentDB cluster class and the index of its `(`; undefined for any other class. */
function readConstructor(tokens: Token[], start: number, bindings: Bindings): { open: number; kind: InfraKind; resource: string } | undefined {
  const chain: string[] = [];
  let index = start;
  for (let name = nameOf(tokens[index]); name !== undefined; name = nameOf(tokens[index])) {
    chain.push(name);
    if (!isPunct(tokens[index + 1], '.')) break;
    index += 2;
  }
  if (chain.length === 0) return undefined;
  index++;
  // `new Construct<Props>(`: type arguments, a few tokens at most.
  if (isPunct(tokens[index], '<')) {
    let depth = 0;
    for (const end = Math.min(tokens.length, index + 64); index < end; index++) {
      if (isPunct(tokens[index], '<')) depth++;
      else if (isPunct(tokens[index], '>') && --depth === 0) break;
    }
    index++;
  }
  if (!isPunct(tokens[index], '(')) return undefined;
  const local = chain.at(-1)!;
  const qualifiers = chain.slice(0, -1);
  const className = qualifiers.length === 0 ? bindings.classes.get(local) : local;
  if (className === undefined || !Object.hasOwn(CLUSTER_CLASSES, className)) return undefined;
  const fromModule =
    qualifiers.length === 0 ||
    bindings.namespaces.has(qualifiers[0]!) ||
    (bindings.importsParent && qualifiers.some((qualifier) => PARENT_EXPORTS.has(qualifier)));
  if (!fromModule) return undefined;
  return { open: index, kind: CLUSTER_CLASSES[className]!, resource: [...qualifiers, local].join('.') };
}

/**
 * The arguments from `(` at `open` to its `)`: `engineVersion` keys of the object literals
 * passed directly (not nested deeper) are handed to `onValue` with their value's token
 * (the key itself for the shorthand `{ engineVersion }`). Returns the index of the `)`.
 */
function readArguments(tokens: Token[], open: number, onValue: (value: Token) => void): number {
  const stack: string[] = [];
  for (let index = open; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.type === 'punct') {
      if (token.value === '(' || token.value === '[' || token.value === '{') stack.push(token.value);
      else if (token.value === ')' || token.value === ']' || token.value === '}') {
        stack.pop();
        if (stack.length === 0) return index;
      }
      continue;
    }
    // Directly in an object literal argument: `(` then `{`.
    if (stack.length !== 2 || stack[1] !== '{' || !isKey(token) || !(isPunct(tokens[index - 1], '{') || isPunct(tokens[index - 1], ','))) continue;
    const after = tokens[index + 1];
    if (isPunct(after, ':')) {
      const value = tokens[index + 2];
      if (value && isValueEnd(tokens, index + 3)) onValue(value);
    } else if (token.type === 'name' && (isPunct(after, ',') || isPunct(after, '}'))) {
      onValue(token);
    }
  }
  return tokens.length;
}

function isKey(token: Token): boolean {
  return (token.type === 'name' || token.type === 'string') && token.value === PROPERTY;
}

/** A string literal's value, or a file constant's when the value is its name. */
function resolveValue(value: Token, bindings: Bindings): { value: string; start: number } | undefined {
  if (value.type === 'string') return value.value === undefined ? undefined : { value: value.value, start: value.start };
  if (value.type === 'name') return bindings.constants.get(value.value) ?? undefined;
  return undefined;
}
