/**
 * The bodies that are not JSON: an upload's source made into a request body (a file streamed, opened again for each
 * attempt), and a text answer (a batch's result CSV) handed over streamed. The generated resources (resources.ts) use
 * them for every operation whose body or answer is text.
 */
import { ContactValidatorError } from './errors.js';
import type { Call } from './transport.js';

/**
 * The file to upload. A string is a file path, unless it holds a line break: then it is the CSV text itself.
 * A `file:` URL is a path. A Blob, a Buffer/Uint8Array or an ArrayBuffer is the content. A ReadableStream or any
 * async iterable of bytes (a Node Readable) is streamed, and cannot be sent twice, so such an upload is never retried.
 */
export type UploadSource = string | URL | Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A batch's result CSV, streamed: read it once, as a stream, as text, or into a file. */
export class BatchResult implements AsyncIterable<Uint8Array> {
  constructor(readonly response: Response) {}

  /** The bytes as a web ReadableStream. */
  get body(): ReadableStream<Uint8Array> {
    if (!this.response.body) throw new ContactValidatorError('The result has no body');
    return this.response.body as ReadableStream<Uint8Array>;
  }

  text(): Promise<string> { return this.response.text(); }

  /** Writes the result to `path` (Node), and answers the number of bytes written. */
  async saveTo(path: string): Promise<number> {
    const [{ createWriteStream }, { Readable }, { pipeline }] = await Promise.all([
      import('node:fs'), import('node:stream'), import('node:stream/promises'),
    ]);
    let bytes = 0;
    const counted = Readable.fromWeb(this.body as import('node:stream/web').ReadableStream<Uint8Array>);
    counted.on('data', (chunk: Uint8Array) => { bytes += chunk.byteLength; });
    await pipeline(counted, createWriteStream(path));
    return bytes;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const reader = this.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
}

/** What the transport sends for an upload: made afresh for each attempt where it can be. */
export async function uploadBody(source: UploadSource): Promise<Pick<Call, 'body' | 'replayable'>> {
  if (typeof source === 'string' && !/[\r\n]/.test(source)) return fileBody(source);
  if (source instanceof URL) return fileBody(source);
  if (typeof source === 'string' || source instanceof Blob || source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const content = ArrayBuffer.isView(source) && !(source instanceof Uint8Array)
      ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength) : source;
    return { body: () => content as BodyInit, replayable: true };
  }
  return { body: () => source as ReadableStream<Uint8Array>, replayable: false };
}

/** A file on disk, streamed (never read whole), opened again for each attempt. */
async function fileBody(path: string | URL): Promise<Pick<Call, 'body' | 'replayable'>> {
  const [fs, { Readable }] = await Promise.all([import('node:fs'), import('node:stream')]);
  // A missing file is the caller's error, reported as fs reports it, not a connection failure to retry.
  await fs.promises.access(path, fs.constants.R_OK);
  return {
    body: () => Readable.toWeb(fs.createReadStream(path)) as unknown as ReadableStream<Uint8Array>,
    replayable: true,
  };
}
