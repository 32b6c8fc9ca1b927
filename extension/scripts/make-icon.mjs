// Draws images/icon.png (128×128): a retry arrow around a check mark on a teal tile.
// Plain signed-distance shapes with 4×4 supersampling, written as PNG through zlib,
// so the icon can be regenerated without any image tool: `node scripts/make-icon.mjs`.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4;

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

function roundedSquare(x, y, half, radius) {
  const qx = Math.abs(x - 64) - (half - radius);
  const qy = Math.abs(y - 64) - (half - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function segment(x, y, ax, ay, bx, by) {
  const px = x - ax, py = y - ay, dx = bx - ax, dy = by - ay;
  const t = clamp((px * dx + py * dy) / (dx * dx + dy * dy), 0, 1);
  return Math.hypot(px - t * dx, py - t * dy);
}

// Arc of the retry arrow: radius 38, from 50° to 320° (clockwise from the top, screen coords).
const ARC = { cx: 64, cy: 64, r: 38, width: 11, from: 50, to: 320 };
const toXY = (deg, r) => [ARC.cx + r * Math.sin((deg * Math.PI) / 180), ARC.cy - r * Math.cos((deg * Math.PI) / 180)];

function arc(x, y) {
  let deg = (Math.atan2(x - ARC.cx, -(y - ARC.cy)) * 180) / Math.PI;
  if (deg < 0) deg += 360;
  if (deg >= ARC.from && deg <= ARC.to) return Math.abs(Math.hypot(x - ARC.cx, y - ARC.cy) - ARC.r) - ARC.width / 2;
  const ends = [toXY(ARC.from, ARC.r), toXY(ARC.to, ARC.r)];
  return Math.min(...ends.map(([ex, ey]) => Math.hypot(x - ex, y - ey))) - ARC.width / 2;
}

function inTriangle(x, y, [a, b, c]) {
  const side = (p, q) => (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  const s1 = side(a, b), s2 = side(b, c), s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
}

// Arrowhead at the arc's end (320°), pointing clockwise along the circle.
const tip = toXY(338, ARC.r);
const ARROW = [toXY(318, ARC.r + 15), toXY(318, ARC.r - 15), tip];

const check = (x, y) => Math.min(segment(x, y, 44, 66, 58, 80), segment(x, y, 58, 80, 85, 50)) - 6;

function shade(x, y) {
  if (roundedSquare(x, y, 64, 26) > 0) return [0, 0, 0, 0];
  const t = (x + y) / (2 * SIZE);
  const background = [Math.round(12 + 10 * t), Math.round(110 - 40 * t), Math.round(120 - 30 * t), 255];
  if (arc(x, y) <= 0 || inTriangle(x, y, ARROW)) return [255, 255, 255, 255];
  if (check(x, y) <= 0) return [134, 239, 172, 255];
  return background;
}

const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const rgba = shade(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
        // Premultiply so edges against transparency do not darken.
        for (let i = 0; i < 3; i++) sum[i] += (rgba[i] * rgba[3]) / 255;
        sum[3] += rgba[3];
      }
    }
    const n = SAMPLES * SAMPLES;
    const alpha = sum[3] / n;
    const offset = y * (SIZE * 4 + 1) + 1 + x * 4;
    for (let i = 0; i < 3; i++) raw[offset + i] = alpha === 0 ? 0 : Math.round((sum[i] / n) * (255 / alpha));
    raw[offset + 3] = Math.round(alpha);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../images/icon.png', import.meta.url), png);
console.log(`images/icon.png: ${png.length} bytes`);
