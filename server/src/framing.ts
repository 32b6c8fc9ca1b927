// The LSP base protocol's framing, checked byte by byte as the input arrives: ASCII
// header lines ended by CRLF, a `Content-Length` in decimal, an empty line, then that
// many bytes of content. vscode-jsonrpc's reader tolerates some broken frames and waits
// forever on others (LF-only line ends, binary garbage, a `Content-Length` of terabytes):
// the server would then live on without ever answering. This check names the first
// broken frame so that the server can fail loudly instead (see transport.ts).
//
// It only counts content bytes and keeps at most one header block, so it is linear in
// the input and its memory is bounded. Its reasons never quote the input (a header could
// hold anything, a password included): only lengths, byte values and numbers it parsed.

/** A header block longer than this is not LSP: real ones are one or two short lines. */
export const MAX_HEADER_BYTES = 8 * 1024;

/**
 * The largest content a frame may announce. Far above any message an editor sends (the
 * server does not even lint documents above 2 MB), and far below what Node can hold as one
 * string: a larger `Content-Length` means the stream is not LSP or is out of step.
 */
export const MAX_CONTENT_LENGTH = 128 * 1024 * 1024;

const CR = 0x0d;
const LF = 0x0a;
const TAB = 0x09;
const COLON = 0x3a;

function describeByte(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}

/** Checks a byte stream chunk by chunk; the first malformed frame is reported once and for good. */
export class FrameChecker {
  /** Content bytes of the current frame still to come; -1 while reading a header block. */
  #contentLeft = -1;
  /** The header block read so far (bounded by MAX_HEADER_BYTES). */
  #header: number[] = [];
  #failure: string | undefined;

  /** Why the stream is not well-framed LSP, once it is known; undefined while it is. */
  get failure(): string | undefined {
    return this.#failure;
  }

  /** Reads the next chunk; returns the reason as soon as a frame is malformed. */
  push(chunk: Uint8Array): string | undefined {
    let offset = 0;
    while (this.#failure === undefined && offset < chunk.length) {
      if (this.#contentLeft > 0) {
        const taken = Math.min(this.#contentLeft, chunk.length - offset);
        this.#contentLeft -= taken;
        offset += taken;
        continue;
      }
      this.#readHeaderByte(chunk[offset] as number);
      offset++;
    }
    return this.#failure;
  }

  #fail(reason: string): void {
    this.#failure = reason;
    this.#header = [];
  }

  #readHeaderByte(byte: number): void {
    const header = this.#header;
    const previous = header[header.length - 1];
    if (byte === LF && previous !== CR) {
      this.#fail('a header line ends in LF without CR (header lines end in CRLF)');
      return;
    }
    if (previous === CR && byte !== LF) {
      this.#fail('a CR in a header is not followed by LF');
      return;
    }
    if (byte !== CR && byte !== LF && byte !== TAB && (byte < 0x20 || byte > 0x7e)) {
      this.#fail(`byte ${describeByte(byte)} in a header, where only ASCII text is allowed (binary data, or a stream out of step)`);
      return;
    }
    header.push(byte);
    if (header.length > MAX_HEADER_BYTES) {
      this.#fail(`no end of the header block within ${MAX_HEADER_BYTES} bytes`);
      return;
    }
    if (byte !== LF) return;
    // A line has ended: the empty line ends the block, any other must be `Name: value`.
    const lineEnd = header.length - 2;
    const lineStart = header.lastIndexOf(LF, lineEnd - 1) + 1;
    if (lineEnd > lineStart) {
      const colon = header.indexOf(COLON, lineStart);
      if (colon === -1 || colon >= lineEnd) this.#fail(`a header line of ${lineEnd - lineStart} bytes has no ':' between name and value`);
      return;
    }
    this.#endHeaderBlock();
  }

  #endHeaderBlock(): void {
    const lines = String.fromCharCode(...this.#header)
      .split('\r\n')
      .filter((line) => line !== '');
    this.#header = [];
    const lengths = lines
      .map((line) => ({ name: line.slice(0, line.indexOf(':')), value: line.slice(line.indexOf(':') + 1).trim() }))
      .filter(({ name }) => name.toLowerCase() === 'content-length')
      .map(({ value }) => value);
    if (lengths.length === 0) {
      this.#fail(lines.length === 0 ? 'an empty header block (no Content-Length)' : `no Content-Length among ${lines.length} header line(s)`);
      return;
    }
    if (lengths.length > 1) {
      this.#fail(`Content-Length given ${lengths.length} times`);
      return;
    }
    const value = lengths[0] as string;
    if (!/^\d+$/.test(value)) {
      this.#fail(`a Content-Length that is not a decimal number (${value.length} characters)`);
      return;
    }
    const length = Number(value);
    if (length > MAX_CONTENT_LENGTH) {
      this.#fail(`a Content-Length of ${value.length > 20 ? `${value.length} digits` : value} bytes, above the limit of ${MAX_CONTENT_LENGTH}`);
      return;
    }
    this.#contentLeft = length;
  }
}
