// The frame check on its own: well-formed input passes however it is split into chunks;
// each kind of broken frame is named, without quoting the input.
import { describe, expect, it } from 'vitest';
import { FrameChecker, MAX_CONTENT_LENGTH, MAX_HEADER_BYTES } from '../../server/src/framing';

const encoder = new TextEncoder();

function frame(body: string, headers = (length: number) => `Content-Length: ${length}\r\n\r\n`): Uint8Array {
  const content = encoder.encode(body);
  const head = encoder.encode(headers(content.length));
  const bytes = new Uint8Array(head.length + content.length);
  bytes.set(head);
  bytes.set(content, head.length);
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

/** The checker's verdict on `bytes` delivered in chunks of `size`. */
function check(bytes: Uint8Array, size = bytes.length): string | undefined {
  const checker = new FrameChecker();
  for (let offset = 0; offset < bytes.length; offset += size) checker.push(bytes.subarray(offset, offset + size));
  return checker.failure;
}

const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { note: 'Grüße, 🙂 — 3 frames' } });

describe('FrameChecker', () => {
  it('accepts well-formed frames however the input is split (CRLF and multi-byte characters across chunks)', () => {
    const stream = concat(
      frame(request),
      frame('{"jsonrpc":"2.0","method":"initialized","params":{}}', (length) => `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length:${length}\r\n\r\n`),
      frame(request),
    );
    for (const size of [1, 2, 3, 7, 64, stream.length]) expect(check(stream, size), `chunks of ${size}`).toBeUndefined();
  });

  it('accepts a Content-Length of 0 and one at the limit (the content need not have arrived)', () => {
    expect(check(encoder.encode('Content-Length: 0\r\n\r\n'))).toBeUndefined();
    expect(check(encoder.encode(`Content-Length: ${MAX_CONTENT_LENGTH}\r\n\r\n{`))).toBeUndefined();
  });

  it.each([
    ['a non-numeric Content-Length', 'Content-Length: abc\r\n\r\n{}', /not a decimal number \(3 characters\)/],
    ['a Content-Length with trailing junk', 'Content-Length: 12abc\r\n\r\n{}', /not a decimal number/],
    ['a negative Content-Length', 'Content-Length: -5\r\n\r\n{}', /not a decimal number/],
    ['a missing Content-Length', 'Content-Type: application/vscode-jsonrpc\r\n\r\n{}', /no Content-Length among 1 header line/],
    ['an empty header block', '\r\n\r\n{}', /an empty header block/],
    ['a huge Content-Length', 'Content-Length: 99999999999999\r\n\r\n{}', /Content-Length of 99999999999999 bytes, above the limit/],
    ['a Content-Length one above the limit', `Content-Length: ${MAX_CONTENT_LENGTH + 1}\r\n\r\n`, /above the limit of 134217728/],
    ['two Content-Lengths', 'Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}', /given 2 times/],
    ['LF-only headers', 'Content-Length: 2\n\n{}', /ends in LF without CR/],
    ['a CR not followed by LF', 'Content-Length: 2\r\r\n\r\n{}', /CR in a header is not followed by LF/],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n', /a header line of 14 bytes has no ':'/],
  ])('names %s', (_kind, input, reason) => {
    for (const size of [1, 1000]) expect(check(encoder.encode(input), size)).toMatch(reason);
  });

  it('names binary garbage, and text that never ends a header block', () => {
    expect(check(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toMatch(/byte 0x89 in a header/);
    expect(check(Uint8Array.from([0x43, 0x6f, 0x00, 0x6e]))).toMatch(/byte 0x00 in a header/);
    expect(check(encoder.encode('x'.repeat(MAX_HEADER_BYTES + 1)), 4096)).toMatch(/no end of the header block within 8192 bytes/);
  });

  it('names a broken frame that follows good ones, and stays failed', () => {
    const checker = new FrameChecker();
    expect(checker.push(concat(frame(request), frame(request)))).toBeUndefined();
    expect(checker.push(encoder.encode('Content-Length: 2\n\n{}'))).toMatch(/LF without CR/);
    expect(checker.push(frame(request))).toMatch(/LF without CR/);
  });

  it('never quotes the input in its reasons', () => {
    const secret = 'mongodb://app:s3cret@db.example.com';
    for (const input of [`Content-Length: ${secret}\r\n\r\n`, `${secret}\r\n\r\n`, `X-Uri: ${secret}\r\n\r\n`, `${secret}\n`]) {
      const reason = check(encoder.encode(input));
      expect(reason).toBeDefined();
      expect(reason).not.toContain('s3cret');
    }
  });
});
