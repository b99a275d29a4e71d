import { crc32, deflateSync } from 'node:zlib';
import encodeQR from 'qr';

/** The screens show a QR code at about this many pixels across. */
const TARGET_PX = 256;
/** Modules of white around the symbol (the quiet zone scanners need). */
const QUIET_ZONE = 2;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A black-on-white PNG of a module matrix (true = dark), `scale` pixels per module:
 * 1-bit greyscale, one filter-type-0 byte before each row, as PNG wants.
 */
export function matrixToPng(matrix: readonly (readonly boolean[])[], scale: number): Buffer {
  const width = (matrix[0]?.length ?? 0) * scale;
  const height = matrix.length * scale;
  const stride = 1 + Math.ceil(width / 8);
  // 0xff everywhere: white pixels and a filter byte we clear below.
  const raw = Buffer.alloc(stride * height, 0xff);
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    raw[row] = 0;
    const modules = matrix[Math.floor(y / scale)]!;
    for (let x = 0; x < width; x++) {
      if (modules[Math.floor(x / scale)]) raw[row + 1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  // compression, filter and interlace methods stay 0
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG data URL of `text` (error correction M), as the screens show QR codes. */
export function qrPng(text: string): string {
  const matrix = encodeQR(text, 'raw', { ecc: 'medium', border: QUIET_ZONE });
  const scale = Math.ceil(TARGET_PX / matrix.length);
  return `data:image/png;base64,${matrixToPng(matrix, scale).toString('base64')}`;
}
