import { describe, expect, it } from 'vitest';
import { MqttPacketLimit } from './mqtt-packet-limit.js';

/** An MQTT packet: type byte, remaining length (variable-length), body. */
function packet(bodyLength: number): Buffer {
  const len: number[] = [];
  let n = bodyLength;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    len.push(byte);
  } while (n > 0);
  return Buffer.concat([Buffer.from([0x32, ...len]), Buffer.alloc(bodyLength, 0x61)]);
}

describe('MqttPacketLimit', () => {
  it('passes packets up to the limit, however the bytes are split', () => {
    const stream = Buffer.concat([
      packet(0),
      packet(127),
      packet(128),
      packet(1000),
      packet(16_384),
    ]);
    for (const size of [1, 2, 3, 7, 4096, stream.length]) {
      const limit = new MqttPacketLimit(16_384);
      for (let i = 0; i < stream.length; i += size)
        expect(limit.feed(stream.subarray(i, i + size))).toBe(true);
    }
  });

  it('refuses a packet over the limit at its header, before its body arrives', () => {
    const limit = new MqttPacketLimit(1000);
    expect(limit.feed(packet(1000))).toBe(true);
    const over = packet(1001);
    expect(limit.feed(over.subarray(0, 3))).toBe(false);
  });

  it('refuses a length split across reads once it is known to be over', () => {
    const limit = new MqttPacketLimit(200_000);
    // 268,435,455: the largest length MQTT can declare.
    expect(limit.feed(Buffer.from([0x10, 0xff]))).toBe(true);
    expect(limit.feed(Buffer.from([0xff, 0xff]))).toBe(false);
  });

  it('refuses a remaining length longer than four bytes', () => {
    const limit = new MqttPacketLimit(Number.MAX_SAFE_INTEGER);
    expect(limit.feed(Buffer.from([0x10, 0x80, 0x80, 0x80, 0x80]))).toBe(false);
  });
});
