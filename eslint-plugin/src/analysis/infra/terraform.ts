import type { FoundEngineVersion } from './found-version';
import { createLineIndex } from './line-index';

/**
 * `engine_version` of the `aws_docdb_cluster` and `aws_docdb_global_cluster` resources of
 * a Terraform file (`aws_docdb_elastic_cluster` has no engine version).
 *
 * A small scanner rather than a parser: the npm registry's HCL parsers are Go or
 * tree-sitter builds loaded as WebAssembly or native code, asynchronous or heavy, while
 * all this needs is one attribute at the top of one kind of block. The scanner knows
 * what can hide a brace or a quote in HCL (comments, strings with `${…}` templates,
 * heredocs) and reads the file once, left to right: linear in its length. Only a plain
 * string counts (`"8.0.2"`); a variable or an expression is left unread, since its value
 * is decided elsewhere.
 */

export const TERRAFORM_CLUSTER_TYPES: ReadonlySet<string> = new Set(['aws_docdb_cluster', 'aws_docdb_global_cluster']);
export const TERRAFORM_MARKER = /aws_docdb_(?:global_)?cluster/;

type Token =
  | { type: 'word'; value: string; start: number }
  | { type: 'string'; value: string | undefined; start: number }
  | { type: 'punct'; value: string; start: number }
  | { type: 'newline'; start: number };

/** The tokens that matter for block structure; string values undefined when they hold a template. */
function* tokenize(text: string): Generator<Token> {
  const length = text.length;
  let index = 0;
  while (index < length) {
    const char = text[index]!;
    if (char === '\n') {
      yield { type: 'newline', start: index };
      index++;
    } else if (char === ' ' || char === '\t' || char === '\r') {
      index++;
    } else if (char === '#' || (char === '/' && text[index + 1] === '/')) {
      const end = text.indexOf('\n', index);
      index = end === -1 ? length : end;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? length : end + 2;
    } else if (char === '"') {
      const start = index;
      const { end, value } = readString(text, index);
      index = end;
      yield { type: 'string', value, start };
    } else if (char === '<' && text[index + 1] === '<') {
      index = skipHeredoc(text, index);
      yield { type: 'string', value: undefined, start: index };
    } else if (/[A-Za-z_]/.test(char)) {
      const start = index;
      while (index < length && /[\w-]/.test(text[index]!)) index++;
      yield { type: 'word', value: text.slice(start, index), start };
    } else {
      yield { type: 'punct', value: char, start: index };
      index++;
    }
  }
}

/**
 * A quoted string from its opening quote: where it ends, and its value when it is plain
 * text (no `${…}` or `%{…}` template). A template may hold strings with templates of
 * their own: one stack follows them (-1: in a string; n > 0: in a template, n braces
 * open), in one pass.
 */
function readString(text: string, start: number): { end: number; value: string | undefined } {
  const stack = [-1];
  let index = start + 1;
  let value = '';
  let plain = true;
  while (index < text.length) {
    const char = text[index]!;
    const top = stack.length - 1;
    const outermost = top === 0;
    if (stack[top] === -1) {
      if (char === '\\') {
        if (outermost) value += text[index + 1] ?? '';
        index += 2;
        continue;
      }
      if (char === '"') {
        stack.pop();
        index++;
        if (stack.length === 0) return { end: index, value: plain ? value : undefined };
        continue;
      }
      // A quoted string ends at its line: unterminated, it is not a value.
      if (char === '\n' && outermost) return { end: index, value: undefined };
      if ((char === '$' || char === '%') && text[index + 1] === '{') {
        plain = false;
        stack.push(1);
        index += 2;
        continue;
      }
      if (outermost) value += char;
    } else if (char === '{') {
      stack[top]!++;
    } else if (char === '}') {
      if (--stack[top]! === 0) stack.pop();
    } else if (char === '"') {
      stack.push(-1);
    }
    index++;
  }
  return { end: index, value: undefined };
}

/** `<<EOF` or `<<-EOF` to the line holding only the marker; its end. A `<<` that opens no heredoc is skipped as two characters. */
function skipHeredoc(text: string, start: number): number {
  const match = /^<<-?([A-Za-z_][\w-]*)[ \t]*\r?\n/.exec(text.slice(start, start + 256));
  if (!match) return start + 2;
  const marker = match[1]!;
  let lineStart = start + match[0].length;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (text.slice(lineStart, lineEnd).trim() === marker) return lineEnd;
    lineStart = lineEnd + 1;
  }
  return text.length;
}

/** An open brace: a cluster resource's body, another block's, or an object value's. */
type Frame = { kind: 'resource'; type: string } | { kind: 'block' } | { kind: 'expression' };

/** The engine versions that the file's DocumentDB cluster resources state. */
export function findTerraformEngineVersions(text: string, file: string): FoundEngineVersion[] {
  if (!TERRAFORM_MARKER.test(text)) return [];
  const lineOf = createLineIndex(text);
  const found: FoundEngineVersion[] = [];
  const frames: Frame[] = [];
  /** Tokens of the current line of the current body (a block's header or an attribute). */
  let line: Token[] = [];
  /** Open `(` and `[`: a line break inside them does not end an attribute. */
  let brackets = 0;
  let lineHasEquals = false;

  const endLine = () => {
    const frame = frames.at(-1);
    if (frame?.kind === 'resource' && frames.length === 1) {
      const [name, equals, value, ...rest] = line;
      if (name?.type === 'word' && name.value === 'engine_version' && equals?.type === 'punct' && equals.value === '=' && value?.type === 'string' && rest.length === 0 && value.value !== undefined) {
        found.push({ version: value.value, file, line: lineOf(value.start), kind: 'terraform', resource: frame.type });
      }
    }
    line = [];
    lineHasEquals = false;
  };

  for (const token of tokenize(text)) {
    if (token.type === 'newline') {
      if (brackets === 0) endLine();
      continue;
    }
    if (token.type === 'punct') {
      if (token.value === '(' || token.value === '[') {
        brackets++;
      } else if (token.value === ')' || token.value === ']') {
        brackets = Math.max(0, brackets - 1);
      } else if (token.value === '=') {
        lineHasEquals = true;
      } else if (token.value === '{') {
        if (brackets > 0 || lineHasEquals || frames.at(-1)?.kind === 'expression') {
          // An object value (`tags = { … }`), not a block: part of the attribute's line.
          frames.push({ kind: 'expression' });
          line.push(token);
          continue;
        }
        const [keyword, type] = line;
        const resourceType = frames.length === 0 && keyword?.type === 'word' && keyword.value === 'resource' && type?.type === 'string' ? type.value : undefined;
        frames.push(resourceType !== undefined && TERRAFORM_CLUSTER_TYPES.has(resourceType) ? { kind: 'resource', type: resourceType } : { kind: 'block' });
        line = [];
        lineHasEquals = false;
        continue;
      } else if (token.value === '}') {
        if (frames.at(-1)?.kind === 'expression') {
          frames.pop();
          line.push(token);
        } else {
          // A one-line body (`{ engine_version = "8.0.2" }`) ends at its brace.
          endLine();
          frames.pop();
        }
        continue;
      }
    }
    line.push(token);
  }
  endLine();
  return found;
}
