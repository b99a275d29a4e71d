// Last build step: writes a brotli (.br) and a gzip (.gz) copy beside each text file in dist,
// once, at the highest levels; the server sends the one the browser accepts (preCompressed).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const TEXT = /\.(?:html|js|mjs|css|svg|json|txt|webmanifest)$/;

let before = 0;
let afterBr = 0;
for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const data = await readFile(file);
  const br = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
  const gz = gzipSync(data, { level: constants.Z_BEST_COMPRESSION });
  before += data.length;
  afterBr += Math.min(br.length, data.length);
  // A copy that is not smaller is not worth sending; the server falls back to the original.
  if (br.length < data.length) await writeFile(`${file}.br`, br);
  if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
}
console.log(
  `compressed dist: ${(before / 1024).toFixed(0)} kB of text → ${(afterBr / 1024).toFixed(0)} kB brotli`,
);
