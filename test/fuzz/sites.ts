// Places in a program where a mutation or a spliced snippet can go: statements and the
// boundaries between them, string and number literals, operators, `await`s, object
// properties. Found on the @typescript-eslint/parser AST (it reads JavaScript too).
import { parse } from '@typescript-eslint/parser';

type Range = [number, number];

export interface Sites {
  /** Statements, grouped by the list they belong to (a program or block body). */
  statementLists: Range[][];
  /** Offsets where a statement can be inserted: before each statement of a list, and at its end. */
  boundaries: number[];
  strings: Range[];
  numbers: Range[];
  /** Binary and logical operators: where the operator is written. */
  operators: Array<{ start: number; operator: string }>;
  awaits: number[];
  properties: Range[];
  /** Offset just inside each object literal's `{`. */
  objectStarts: number[];
  /** Where imports go: after a leading `#!` line and directives. */
  top: number;
  identifiers: string[];
}

interface AstNode {
  type: string;
  range: Range;
  [key: string]: unknown;
}

function isNode(value: unknown): value is AstNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && Array.isArray((value as { range?: unknown }).range);
}

/** The sites of `text`; undefined when it does not parse. */
export function findSites(text: string, jsx: boolean): Sites | undefined {
  let program: AstNode;
  try {
    program = parse(text, { range: true, loc: false, jsx, sourceType: 'module', comment: false, tokens: false }) as unknown as AstNode;
  } catch {
    return undefined;
  }
  const sites: Sites = { statementLists: [], boundaries: [], strings: [], numbers: [], operators: [], awaits: [], properties: [], objectStarts: [], top: 0, identifiers: [] };
  const identifiers = new Set<string>();
  const body = program.body as AstNode[];
  const firstNonDirective = body.find((statement) => !(statement.type === 'ExpressionStatement' && typeof statement.directive === 'string'));
  sites.top = firstNonDirective ? firstNonDirective.range[0] : text.startsWith('#!') ? text.indexOf('\n') + 1 : 0;

  const addList = (list: AstNode[], emptyAt: number) => {
    sites.statementLists.push(list.map((statement) => statement.range));
    for (const statement of list) sites.boundaries.push(statement.range[0]);
    sites.boundaries.push(list.length > 0 ? list.at(-1)!.range[1] : emptyAt);
  };

  // An explicit stack: deep programs must not overflow the walk.
  const stack: AstNode[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    switch (node.type) {
      case 'Program':
        addList(node.body as AstNode[], text.length);
        break;
      case 'BlockStatement':
      case 'StaticBlock':
        addList(node.body as AstNode[], node.range[0] + 1);
        break;
      case 'Literal':
        if (typeof node.value === 'string') sites.strings.push(node.range);
        else if (typeof node.value === 'number') sites.numbers.push(node.range);
        break;
      case 'BinaryExpression':
      case 'LogicalExpression': {
        const left = node.left as AstNode;
        const start = text.indexOf(node.operator as string, left.range[1]);
        if (start !== -1) sites.operators.push({ start, operator: node.operator as string });
        break;
      }
      case 'AwaitExpression':
        sites.awaits.push(node.range[0]);
        break;
      case 'Property':
        sites.properties.push(node.range);
        break;
      case 'ObjectExpression':
        sites.objectStarts.push(node.range[0] + 1);
        break;
      case 'Identifier':
        identifiers.add(node.name as string);
        break;
      default:
        break;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'parent') continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) stack.push(item);
      } else if (isNode(value)) {
        stack.push(value);
      }
    }
  }
  sites.identifiers = [...identifiers].sort();
  sites.boundaries.sort((a, b) => a - b);
  return sites;
}
