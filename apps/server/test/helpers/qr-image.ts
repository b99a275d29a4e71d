import { crc32, inflateSync } from 'node:zlib';
import decodeQR from 'qr/decode.js';

const SIGNATURE = '89504e470d0a1a0a';

export interface PngImage {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  /** Greyscale rows, one byte per pixel (0 black … 255 white). */
  grey: Uint8Array;
}

/**
 * Reads a `data:image/png;base64,…` URL the way an image viewer would: checks the signature
 * and every chunk's CRC, inflates IDAT and undoes the row filters. It knows the non-interlaced
 * greyscale PNGs the server writes and fails loudly on anything else.
 */
export function readPngDataUrl(url: string): PngImage {
  const prefix = 'data:image/png;base64,';
  if (!url.startsWith(prefix)) throw new Error(`not a PNG data URL: ${url.slice(0, 30)}`);
  const png = Buffer.from(url.slice(prefix.length), 'base64');
  if (png.subarray(0, 8).toString('hex') !== SIGNATURE) throw new Error('bad PNG signature');
  let at = 8;
  let header: Buffer | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    const crc = png.readUInt32BE(at + 8 + length);
    if (crc !== crc32(png.subarray(at + 4, at + 8 + length))) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') header = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (!header || !ended || idat.length === 0) throw new Error('missing IHDR, IDAT or IEND');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [bitDepth, colourType, , , interlace] = header.subarray(8);
  if (colourType !== 0 || interlace !== 0 || ![1, 8].includes(bitDepth!)) {
    throw new Error(`unsupported PNG: colour type ${colourType}, bit depth ${bitDepth}`);
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = Math.ceil((width * bitDepth!) / 8);
  if (raw.length !== height * (stride + 1)) throw new Error('IDAT size does not match IHDR');
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * (stride + 1), (y + 1) * (stride + 1));
    if (row[0] !== 0) throw new Error(`row filter ${row[0]} not handled`);
    for (let x = 0; x < width; x++) {
      grey[y * width + x] =
        bitDepth === 1 ? (row[1 + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0) : row[1 + x]!;
    }
  }
  return { width, height, bitDepth: bitDepth!, colourType: colourType!, grey };
}

/** The text a QR scanner reads from a PNG data URL. */
export function scanQrDataUrl(url: string): string {
  const { width, height, grey } = readPngDataUrl(url);
  const data = new Uint8Array(width * height * 3);
  grey.forEach((v, i) => data.fill(v, i * 3, i * 3 + 3));
  return decodeQR({ width, height, data }, { format: 'RGB' });
}
