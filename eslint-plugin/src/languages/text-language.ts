/**
 * An ESLint language (flat config `language: "retry-safety/text"`, ESLint 9.7+)
 * that reads any file as plain text: the text kinds of `file-kinds.ts` (`.env`, JSON,
 * YAML, TOML, INI, properties, Terraform…). The whole file is one `TextDocument` node;
 * rules that understand text (the connection-string rule) listen to it. Nothing is
 * parsed, so a file whose JSON or YAML syntax is broken is still checked.
 */
import type { File, Language, OkParseResult, SourceLocation } from '@eslint/core';
import { ConfigCommentParser, Directive, TextSourceCodeBase, VisitNodeStep } from '@eslint/plugin-kit';
import { getTextLineComments } from '../file-kinds';

/** Node type of the root (and only) node of a text file. */
export const TEXT_DOCUMENT_TYPE = 'TextDocument';

/** A `# eslint-disable…` comment of a text file (any line comment of a text kind: `#`, `//`, `;`). */
export interface TextComment {
  type: 'TextComment';
  range: [number, number];
  loc: SourceLocation;
}

/**
 * `# eslint-disable-next-line rule -- reason`, whole line or after a value. The file's
 * kind is not known here, so any line comment of a text kind opens a directive.
 */
const COMMENT_OPENER = getTextLineComments()
  .map((opener) => opener.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'))
  .join('|');
const DIRECTIVE_COMMENT = new RegExp(
  `(^|[ \\t])(?:${COMMENT_OPENER})[ \\t]*(eslint-(?:disable|enable)(?:-next-line|-line)?(?:[ \\t].*)?)$`,
  'gmu',
);
const DIRECTIVE_TYPES = new Set(['eslint-disable', 'eslint-enable', 'eslint-disable-line', 'eslint-disable-next-line']);
const commentParser = new ConfigCommentParser();

export interface TextDocument {
  type: typeof TEXT_DOCUMENT_TYPE;
  /** True when the file holds a NUL character: a binary file, not scanned. */
  isBinary: boolean;
  range: [number, number];
  loc: SourceLocation;
}

const LINE_ENDING = /\r\n|[\r\n]/u;

export class TextSourceCode extends TextSourceCodeBase<{
  LangOptions: Record<string, never>;
  RootNode: TextDocument;
  SyntaxElementWithLoc: TextDocument | TextComment;
  ConfigNode: never;
}> {
  readonly visitorKeys = { [TEXT_DOCUMENT_TYPE]: [] };

  constructor(text: string, ast: TextDocument) {
    super({ text, ast, lineEndingPattern: LINE_ENDING });
  }

  /** The single visit of the root node (enter and exit). */
  override traverse(): VisitNodeStep[] {
    return [
      new VisitNodeStep({ target: this.ast, phase: 1, args: [this.ast, undefined] }),
      new VisitNodeStep({ target: this.ast, phase: 2, args: [this.ast, undefined] }),
    ];
  }

  override getParent(): undefined {
    return undefined;
  }

  /** `eslint-disable` / `eslint-enable` comments, so findings in text files can be silenced like in code. */
  getDisableDirectives(): { problems: never[]; directives: Directive[] } {
    const directives: Directive[] = [];
    if (this.ast.isBinary || !this.text.includes('eslint-')) return { problems: [], directives };
    for (const match of this.text.matchAll(DIRECTIVE_COMMENT)) {
      const body = match[2] ?? '';
      const parsed = commentParser.parseDirective(body);
      if (!parsed || !DIRECTIVE_TYPES.has(parsed.label)) continue;
      const start = match.index + (match[1]?.length ?? 0);
      const end = match.index + match[0].length;
      const node: TextComment = {
        type: 'TextComment',
        range: [start, end],
        loc: { start: this.getLocFromIndex(start), end: this.getLocFromIndex(end) },
      };
      const type = parsed.label.slice('eslint-'.length) as 'disable' | 'enable' | 'disable-line' | 'disable-next-line';
      directives.push(new Directive({ type, node, value: parsed.value, justification: parsed.justification }));
    }
    return { problems: [], directives };
  }
}

/** Builds the root node: its range and the location of the end of the text. */
export function createTextDocument(text: string): TextDocument {
  const lines = text.split(LINE_ENDING);
  const lastLine = lines.at(-1) ?? '';
  return {
    type: TEXT_DOCUMENT_TYPE,
    isBinary: text.includes('\u0000'),
    range: [0, text.length],
    loc: { start: { line: 1, column: 0 }, end: { line: lines.length, column: lastLine.length } },
  };
}

function getText(file: File): string {
  return typeof file.body === 'string' ? file.body : new TextDecoder().decode(file.body);
}

export const textLanguage = {
  fileType: 'text',
  lineStart: 1,
  columnStart: 0,
  nodeTypeKey: 'type',
  visitorKeys: { [TEXT_DOCUMENT_TYPE]: [] },
  defaultLanguageOptions: {},
  /**
   * Plain text has no options. Options from config objects without `files` (a
   * project-wide `parser`, `globals`, `ecmaVersion`…) reach every file, these included,
   * so they are accepted and ignored rather than rejected.
   */
  validateLanguageOptions(): void {},
  parse(file: File): OkParseResult<TextDocument> {
    return { ok: true, ast: createTextDocument(getText(file)) };
  },
  createSourceCode(file: File, input: OkParseResult<TextDocument>): TextSourceCode {
    return new TextSourceCode(getText(file), input.ast);
  },
} satisfies Language;
