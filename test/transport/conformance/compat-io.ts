/**
 * What the conformance runner and the programs it drives exchange on stdin and stdout: protobuf
 * messages, each preceded by its size as a big-endian 32-bit integer.
 */
import type { Readable, Writable } from "node:stream";

/** The messages of `input`, in order, as they arrive. */
export async function* readSizeDelimited(input: Readable): AsyncGenerator<Uint8Array> {
  let buffer = Buffer.alloc(0);
  for await (const chunk of input) {
    buffer = Buffer.concat([buffer, chunk as Buffer]);
    while (buffer.byteLength >= 4) {
      const size = buffer.readUInt32BE(0);
      if (buffer.byteLength < 4 + size) break;
      yield buffer.subarray(4, 4 + size);
      buffer = buffer.subarray(4 + size);
    }
  }
  if (buffer.byteLength > 0)
    throw new Error(`stdin ended inside a message (${buffer.byteLength} bytes left)`);
}

export function writeSizeDelimited(output: Writable, message: Uint8Array): void {
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(message.byteLength, 0);
  output.write(Buffer.concat([prefix, message]));
}
