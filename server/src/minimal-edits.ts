// The smallest edits that turn one text into another, for fix-all: the linter returns
// the whole fixed text, and replacing the whole document would move the cursor, lose
// folding and flood undo history. Lines are compared with Myers' O(ND) diff, then each
// changed hunk is narrowed to the characters that differ.

export interface OffsetEdit {
  start: number;
  end: number;
  text: string;
}

/** Lines with their terminators, so that joining them gives the text back. */
function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

interface Hunk {
  /** Old lines [fromA, toA) are replaced by new lines [fromB, toB). */
  fromA: number;
  toA: number;
  fromB: number;
  toB: number;
}

/** Above this many changed lines, one hunk over the changed middle is good enough. */
const MAX_EDIT_DISTANCE = 500;

/** Myers' diff of two line lists, as hunks; undefined when they differ in too many lines. */
function diffLines(a: readonly string[], b: readonly string[]): Hunk[] | undefined {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  // trace[d] holds v[-d..d] as it was before step d.
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= Math.min(n + m, MAX_EDIT_DISTANCE) && !found; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return undefined;

  // Walk back from (n, m), collecting single-line insertions and deletions.
  const steps: { x: number; y: number; isInsert: boolean }[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    // The lines between this edit and (x, y) are equal (the snake); the edit starts at (prevX, prevY).
    steps.push({ x: prevX, y: prevY, isInsert: prevK === k + 1 });
    x = prevX;
    y = prevY;
  }
  steps.reverse();

  const hunks: Hunk[] = [];
  for (const step of steps) {
    const last = hunks[hunks.length - 1];
    const hunk =
      last && last.toA === step.x && last.toB === step.y ? last : { fromA: step.x, toA: step.x, fromB: step.y, toB: step.y };
    if (hunk !== last) hunks.push(hunk);
    if (step.isInsert) hunk.toB++;
    else hunk.toA++;
  }
  return hunks;
}

/** One edit replacing `before[start, end)` with `text`, narrowed to the characters that differ. */
function narrow(before: string, start: number, end: number, text: string): OffsetEdit | undefined {
  const old = before.slice(start, end);
  let prefix = 0;
  const maxPrefix = Math.min(old.length, text.length);
  while (prefix < maxPrefix && old.charCodeAt(prefix) === text.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  const maxSuffix = maxPrefix - prefix;
  while (suffix < maxSuffix && old.charCodeAt(old.length - 1 - suffix) === text.charCodeAt(text.length - 1 - suffix)) suffix++;
  // Never split a surrogate pair or a \r\n.
  while (prefix > 0 && /[\uD800-\uDBFF\r]/.test(old.charAt(prefix - 1))) prefix--;
  while (suffix > 0 && /[\uDC00-\uDFFF\n]/.test(old.charAt(old.length - suffix))) suffix--;
  if (old.length === prefix + suffix && text.length === prefix + suffix) return undefined;
  return { start: start + prefix, end: end - suffix, text: text.slice(prefix, text.length - suffix) };
}

/** Non-overlapping edits, in document order, that turn `before` into `after`. */
export function computeMinimalEdits(before: string, after: string): OffsetEdit[] {
  if (before === after) return [];
  const a = splitLines(before);
  const b = splitLines(after);
  const starts: number[] = [0];
  for (const line of a) starts.push(starts[starts.length - 1]! + line.length);

  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;

  const middleA = a.slice(prefix, a.length - suffix);
  const middleB = b.slice(prefix, b.length - suffix);
  const hunks = diffLines(middleA, middleB) ?? [{ fromA: 0, toA: middleA.length, fromB: 0, toB: middleB.length }];

  const edits: OffsetEdit[] = [];
  for (const hunk of hunks) {
    const start = starts[prefix + hunk.fromA]!;
    const end = starts[prefix + hunk.toA]!;
    const edit = narrow(before, start, end, middleB.slice(hunk.fromB, hunk.toB).join(''));
    if (edit) edits.push(edit);
  }
  return edits;
}

/** Applies non-overlapping edits (any order) to a text. */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): string {
  let result = text;
  for (const edit of [...edits].sort((left, right) => right.start - left.start)) {
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return result;
}
