import type net from 'node:net';

/**
 * Follows the MQTT fixed headers of what a connection sends and reports a packet whose
 * declared size is over the limit as soon as its header arrives. The MQTT parser buffers a
 * packet until all of it is in (the protocol allows 256 MB), so without this one connection
 * could hold that much memory; the scanner keeps three numbers and never copies a byte.
 */
export class MqttPacketLimit {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;

  constructor(private readonly maxRemainingLength: number) {}

  /** Reads the next bytes; answers false once a packet is over the limit (or malformed). */
  feed(chunk: Buffer): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const skip = Math.min(this.remaining, chunk.length - i);
        i += skip;
        this.remaining -= skip;
        if (this.remaining === 0) this.state = 'type';
        continue;
      }
      const byte = chunk[i++]!;
      if (this.state === 'type') {
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      // The remaining length: up to four bytes, seven bits each, least significant first.
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes++;
      if (this.length > this.maxRemainingLength) return false;
      if (byte & 0x80) {
        if (this.lengthBytes === 4) return false;
        continue;
      }
      this.remaining = this.length;
      this.state = this.remaining === 0 ? 'type' : 'body';
    }
    return true;
  }
}

/**
 * Puts the limit in front of a connection's reader: the broker reads with `socket.read()`,
 * and a read that brings an oversized packet's header closes the connection instead of
 * handing the bytes on.
 */
export function limitMqttPackets(
  socket: net.Socket,
  maxRemainingLength: number,
  onRefused: () => void,
): net.Socket {
  const limit = new MqttPacketLimit(maxRemainingLength);
  const read = socket.read.bind(socket);
  socket.read = (size?: number) => {
    const chunk = read(size) as Buffer | string | null;
    if (chunk === null || typeof chunk === 'string' || limit.feed(chunk)) return chunk;
    onRefused();
    socket.destroy();
    return null;
  };
  return socket;
}
