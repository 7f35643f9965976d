/**
 * A file upload streamed to disk, never held in memory: the body itself (`text/csv` and the types browsers and tools
 * send CSV files as) or the part `file` of `multipart/form-data` (busboy), with the other form fields and the part's
 * file name returned. On its way to disk it goes through `inspect` (the batch's CSV scan), which may stop passing it
 * on. Over `maxBytes` it stops reading, deletes what it wrote and answers 413; any other type is 415.
 */
import fs from 'node:fs';
import { PassThrough, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { Problem } from './problems.js';

const RAW_TYPES = ['text/csv', 'application/csv', 'text/plain', 'text/tab-separated-values', 'application/vnd.ms-excel'];
const MAX_FORM_FIELDS = 20;
const MAX_FIELD_BYTES = 4_096;

class TooLarge extends Error {}

/** A refusal of the check `admitUploadWhen` set, passed on as it is. */
class Refused extends Error {
  constructor(readonly reason: unknown) {
    super('upload refused');
  }
}

const admissions = new WeakMap<Request, (fields: Record<string, string>) => void>();

/**
 * A check the upload must pass before a byte of its file is stored: it gets the form's fields sent before the file
 * part (the dashboard's CSRF token, a field placed before the file input), or none for a body sent as it is. What it
 * throws is what the upload throws.
 */
export function admitUploadWhen(req: Request, check: (fields: Record<string, string>) => void): void {
  admissions.set(req, check);
}

function admit(req: Request, fields: Record<string, string>): void {
  try {
    admissions.get(req)?.(fields);
  } catch (err) {
    throw new Refused(err);
  }
}

const tooLarge = (maxBytes: number) =>
  new Problem('batch-too-large', `The file is over ${maxBytes} bytes (BATCH_MAX_BYTES).`, { max_bytes: maxBytes }, { Connection: 'close' });

/** Past this much more than the limit, the connection is cut instead of read to the end. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Counts bytes through. Past the limit it passes nothing more but goes on reading (up to DRAIN_BYTES), so that the
 * client, still sending, gets the 413 rather than a reset connection; `exceeded()` tells afterwards.
 */
function limit(maxBytes: number): Transform & { exceeded(): boolean } {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > maxBytes + DRAIN_BYTES) done(new TooLarge());
      else done(null, seen > maxBytes ? undefined : chunk);
    },
  });
  return Object.assign(t, { exceeded: () => seen > maxBytes });
}

export interface Upload {
  fields: Record<string, string>;
  /** The form part's file name (busboy keeps its last path segment only); null for a body sent as it is. */
  filename: string | null;
}

export async function receiveUpload(req: Request, dest: string, maxBytes: number, inspect: Transform = new PassThrough()): Promise<Upload> {
  const type = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const declared = Number(req.get('content-length') ?? NaN);
  if (type !== 'multipart/form-data' && !RAW_TYPES.includes(type)) {
    throw new Problem(
      'unsupported-media-type',
      type ? `Content-Type ${JSON.stringify(type.slice(0, 100))} is not accepted: send text/csv or multipart/form-data.` : 'Content-Type is missing.',
      {},
      { 'Accept-Post': 'text/csv, multipart/form-data' },
    );
  }
  // Told in advance: refused before a byte is read (the connection closes, so the rest is not read either).
  if (declared > maxBytes) throw tooLarge(maxBytes);
  try {
    if (type === 'multipart/form-data') return await receiveForm(req, dest, maxBytes, inspect);
    admit(req, {});
    const counter = limit(maxBytes);
    await pipeline(req, counter, inspect, fs.createWriteStream(dest));
    if (counter.exceeded()) throw new TooLarge();
    return { fields: {}, filename: null };
  } catch (err) {
    await fs.promises.rm(dest, { force: true });
    if (err instanceof Refused) throw err.reason;
    if (err instanceof TooLarge) throw tooLarge(maxBytes);
    if (err instanceof Problem) throw err;
    throw new Problem('invalid-request', 'The upload ended before it was complete.');
  }
}

function receiveForm(req: Request, dest: string, maxBytes: number, inspect: Transform): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        limits: { fileSize: maxBytes, files: 1, fields: MAX_FORM_FIELDS, fieldSize: MAX_FIELD_BYTES },
        // Browsers send a file's name as UTF-8 bytes; busboy would read them as ISO-8859-1.
        defParamCharset: 'utf8',
      });
    } catch {
      reject(new Problem('invalid-request', 'The multipart/form-data body has no boundary.'));
      return;
    }
    const fields: Record<string, string> = {};
    let saving: Promise<void> | null = null;
    let truncated = false;
    let filename: string | null = null;
    form.on('field', (name, value) => {
      if (name !== 'file') fields[name] = value;
    });
    form.on('file', (name, stream, info) => {
      if (name !== 'file' || saving) {
        stream.resume();
        return;
      }
      try {
        admit(req, fields);
      } catch (err) {
        // Refused before the file is stored: the rest of the body is read and dropped.
        stream.resume();
        req.unpipe(form);
        req.resume();
        reject(err);
        return;
      }
      filename = info.filename ?? null;
      stream.on('limit', () => {
        truncated = true;
      });
      saving = pipeline(stream, inspect, fs.createWriteStream(dest));
    });
    form.on('error', () => reject(new Problem('invalid-request', 'The multipart/form-data body is malformed.')));
    form.on('close', () => {
      if (!saving) {
        reject(new Problem('invalid-request', 'The form has no part named "file".'));
        return;
      }
      saving.then(() => (truncated ? reject(new TooLarge()) : resolve({ fields, filename })), reject);
    });
    req.pipe(form);
  });
}
