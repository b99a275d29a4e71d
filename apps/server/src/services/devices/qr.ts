import QRCode from 'qrcode';

/** A PNG data URL of `text`, as the screens show QR codes. */
export const qrPng = (text: string) =>
  QRCode.toDataURL(text, { errorCorrectionLevel: 'M', margin: 2, width: 256 });
