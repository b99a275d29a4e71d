import compress, { type FastifyCompressOptions } from '@fastify/compress';
import { constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * API answers are compressed on the fly when they are large enough to gain from it (lists of
 * users, devices, readings). The built web app's files are not: they are compressed once at
 * build time and served as they are (see app.ts, `preCompressed`).
 */
export const apiCompressionOptions = {
  global: true,
  // Below about 1 kB the headers and the CPU cost more than the bytes saved.
  threshold: 1024,
  encodings: ['br', 'gzip'],
  // JSON and text, but never the live stream: a compressor buffers, and each event must
  // reach the browser the moment it is written.
  customTypes: /^application\/(?:[\w.+-]+\+)?json(?:;|$)|^text\/(?!event-stream)/,
  // Brotli's default quality (11) is for files made once; 4 keeps each answer cheap.
  brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  // Our clients never compress request bodies; not inflating them keeps decompression bombs out.
  globalDecompression: false,
} satisfies FastifyCompressOptions;

/** Registers compression in the calling scope only (the /api routes). */
export async function registerApiCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, apiCompressionOptions);
}
