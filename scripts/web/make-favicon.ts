// Draws the site's icon (an o with a dot below, white on the site's green: the letter ọ, as in assets/
// favicon.svg) into services/api/web/assets/favicon.ico, a 32×32 PNG inside an ICO, for the clients that ask
// /favicon.ico and read no SVG.
//
//   node --import tsx scripts/web/make-favicon.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

const SIZE = 32;
/** Samples per pixel side: edges are anti-aliased by coverage. */
const SUPERSAMPLE = 4;
const GREEN = [0x0b, 0x5d, 0x3b];
const OUT = path.resolve(import.meta.dirname, '../../services/api/web/assets/favicon.ico');

/** The same shapes as favicon.svg, in its 32-unit box: rounded square, ring, dot. */
function inside(x: number, y: number): { square: boolean; white: boolean } {
  const r = 6;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  const square = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  const ring = Math.abs(Math.hypot(x - 16, y - 13.5) - 7) <= 1.6;
  const dot = Math.hypot(x - 16, y - 26) <= 2.4;
  return { square, white: ring || dot };
}

function pixels(): Buffer {
  const rgba = Buffer.alloc(SIZE * SIZE * 4);
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let cover = 0;
      let white = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const at = inside(px + (sx + 0.5) / SUPERSAMPLE, py + (sy + 0.5) / SUPERSAMPLE);
          if (at.square) cover++;
          if (at.square && at.white) white++;
        }
      }
      const n = SUPERSAMPLE * SUPERSAMPLE;
      const w = cover ? white / cover : 0;
      const i = (py * SIZE + px) * 4;
      for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(GREEN[c] + (255 - GREEN[c]) * w);
      rgba[i + 3] = Math.round((255 * cover) / n);
    }
  }
  return rgba;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.writeUInt8(8, 8); // bits per channel
  header.writeUInt8(6, 9); // RGBA
  const rows = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) rgba.copy(rows, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** An ICO holding one PNG image (supported by every browser since Windows Vista's format). */
function ico(image: Buffer): Buffer {
  const head = Buffer.alloc(6 + 16);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2); // icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(SIZE, 6);
  head.writeUInt8(SIZE, 7);
  head.writeUInt16LE(1, 10); // planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(head.length, 18);
  return Buffer.concat([head, image]);
}

writeFileSync(OUT, ico(png(pixels())));
console.log(`${OUT}: written`);
