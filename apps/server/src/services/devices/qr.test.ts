import encodeQR from 'qr';
import { describe, expect, it } from 'vitest';
import { readPngDataUrl, scanQrDataUrl } from '../../../test/helpers/qr-image.js';
import { newDeviceKey } from './device-credentials.js';
import { matrixToPng, qrPng } from './qr.js';

const asDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

describe('qrPng', () => {
  it('answers a PNG data URL that a scanner reads back as the device key', () => {
    const key = newDeviceKey();
    const url = qrPng(key);
    expect(url).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(scanQrDataUrl(url)).toBe(key);
  });

  it('reads back a Device ID too', () => {
    expect(scanQrDataUrl(qrPng('PG-2024-001'))).toBe('PG-2024-001');
  });

  it('draws the symbol with a two-module quiet zone at about 256 px, whole pixels per module', () => {
    const key = newDeviceKey();
    // A 43-character key at error correction M needs version 4: 33 modules, 37 with the quiet zone.
    const matrix = encodeQR(key, 'raw', { ecc: 'medium', border: 2 });
    expect(matrix).toHaveLength(37);
    const img = readPngDataUrl(qrPng(key));
    expect(img).toMatchObject({ width: 37 * 7, height: 37 * 7, bitDepth: 1, colourType: 0 });
    // Every pixel matches its module; the quiet zone is white and the finder's corner dark.
    for (let y = 0; y < img.height; y++) {
      for (let x = 0; x < img.width; x++) {
        const dark = matrix[Math.floor(y / 7)]![Math.floor(x / 7)];
        expect(img.grey[y * img.width + x], `pixel ${x},${y}`).toBe(dark ? 0 : 255);
      }
    }
    expect(img.grey[0]).toBe(255);
    expect(img.grey[14 * img.width + 14]).toBe(0);
  });
});

describe('matrixToPng', () => {
  it('packs rows of any width into bytes, dark as 0 and light as 1', () => {
    // 9 px wide: each row spans two bytes, the second with only its top bit in the image.
    const m = [
      [true, false, false, false, false, false, false, false, true],
      [false, true, false, false, false, false, false, false, false],
    ];
    const img = readPngDataUrl(asDataUrl(matrixToPng(m, 1)));
    expect(img.width).toBe(9);
    expect(img.height).toBe(2);
    expect(Array.from(img.grey)).toEqual(m.flat().map((dark) => (dark ? 0 : 255)));
  });

  it('scales each module to a square of pixels', () => {
    const img = readPngDataUrl(
      asDataUrl(
        matrixToPng(
          [
            [true, false],
            [false, true],
          ],
          3,
        ),
      ),
    );
    expect(img.width).toBe(6);
    const at = (x: number, y: number) => img.grey[y * 6 + x];
    expect([at(0, 0), at(2, 2), at(3, 0), at(0, 3), at(5, 5), at(3, 3)]).toEqual([
      0, 0, 255, 255, 0, 0,
    ]);
  });
});
