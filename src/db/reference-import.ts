/**
 * The import side of the address reference data (tables of migrations/1763800000000-ReferenceData.ts and
 * 1765100000000-ReferencePointLocation.ts):
 *   importReferenceFile   `reference import --format FORMAT FILE`: streams the file through its reader and upserts by
 *                         natural key in batches of ROWS_PER_TRANSACTION (reference-writes.ts), one transaction each:
 *                         constant memory, and a re-import of the same file changes nothing. A USPS transaction file's
 *                         delete records delete their ranges, in file order with its adds.
 *                         Resumable: every batch commits, with its rows, a checkpoint of how far the file is imported
 *                         (the byte offset past the last row for CSV files, the number of records for the others) and
 *                         what identifies the file (size, mtime, SHA-256 of its first MiB). Run again after an
 *                         interruption (kill -9, a crash, a lost database), the import goes on from that checkpoint if
 *                         the file is the same, from the start (rows already written are upserted again) if not. A
 *                         finished import deletes its checkpoint and logs itself in reference_imports, in one
 *                         transaction: that log line is what serving instances watch (lastReferenceImport).
 *   importRecords         the same for records from elsewhere (the shipped RRAD sample, reference-store.ts).
 *   referenceStatus       what `reference status` tells.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './data-source.js';
import { MAX_REJECTS_LISTED, collectGarbage, recordBatches, type RecordBatch } from './reference-batches.js';
import { batchesFromWorker, batchesOnThisThread, type WorkerRead } from './reference-import-worker.js';
import { PgBulkWriter, writeSqliteBatch, type TrailingStatement } from './reference-writes.js';
import { SAFETY_NET_WAL_PAGES, startWalCheckpointer } from './wal-checkpointer.js';
import {
  REFERENCE_FORMATS, RESUMABLE_BY_OFFSET, SOURCE_OF_FORMAT, type ReadFrom, type ReferenceFormat, type ReferenceRecord,
} from '../validation/address/reference-formats/index.js';

export interface ReferenceImportResult {
  format: string;
  file: string;
  /** Records read from the file (header and copyright records not counted), also before a resumption. */
  read: number;
  /** Records upserted. */
  loaded: number;
  /** Delete records applied (USPS transaction files): their ranges, where held, are gone. */
  deleted: number;
  rejected: number;
  /** The first rejected records with the reason (at most MAX_REJECTS_LISTED; after a resumption, those read since). */
  rejects?: { record: number; reason: string }[];
  /** Imported with `--sample`: the points confirm themselves and deny no other number of their streets. */
  sample?: true;
  /** The import went on from an interrupted one's checkpoint: the records and bytes it had committed. */
  resumed?: { records: number; byte_offset: number };
}

/** The bytes hashed to tell that a file is the one a checkpoint was written for. */
const HEAD_BYTES = 1 << 20;
export const EMBEDDED_RRAD_FORMAT = 'rrad-embedded';
/** The `source` (and import log `format`) of a file imported with `--sample`: `openaddresses+sample`. */
export const SAMPLE_SOURCE_SUFFIX = '+sample';
/** The formats of address points, which may be a sample (the others list whole ZIP codes or street ranges). */
const POINT_FORMATS: ReadonlySet<string> = new Set(['openaddresses', 'nar', 'nad']);

/** What tells a file from another with the same name: a checkpoint holds only for the file it was written for. */
interface FileIdentity {
  size: number;
  mtimeMs: number;
  headSha256: string;
}

async function fileIdentity(file: string): Promise<FileIdentity> {
  const stat = await fs.promises.stat(file);
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(Math.min(HEAD_BYTES, stat.size));
    await handle.read(head, 0, head.length, 0);
    return { size: stat.size, mtimeMs: Math.floor(stat.mtimeMs), headSha256: crypto.createHash('sha256').update(head).digest('hex') };
  } finally {
    await handle.close();
  }
}

/** The first non-empty line of a CSV file (its header), read again when an import goes on from an offset. */
async function headerLine(file: string): Promise<string> {
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  let text = '';
  try {
    for await (const chunk of stream) {
      text += chunk as string;
      const line = text.split('\n').find((l, i, all) => l.trim() && i < all.length - 1);
      if (line !== undefined) return line.replace(/\r$/, '');
      if (text.length > HEAD_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return text.trim();
}

interface CheckpointRow {
  size: number | string; mtime_ms: number | string; head_sha256: string; byte_offset: number | string; records: number | string;
  records_read: number | string; records_loaded: number | string; records_rejected: number | string; records_deleted: number | string;
  started_at: number | string;
}

/** Where an import of `file` goes on from, with the counts it had. */
interface Resume {
  records: number;
  byteOffset: number;
  startedAt: number;
  counts: Pick<ReferenceImportResult, 'read' | 'loaded' | 'rejected' | 'deleted'>;
}

const CHECKPOINT_SQL = `INSERT INTO reference_import_checkpoints (format, file, size, mtime_ms, head_sha256, byte_offset, records, records_read,
    records_loaded, records_rejected, records_deleted, started_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
  ON CONFLICT (format, file) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, head_sha256 = excluded.head_sha256,
    byte_offset = excluded.byte_offset, records = excluded.records, records_read = excluded.records_read, records_loaded = excluded.records_loaded,
    records_rejected = excluded.records_rejected, records_deleted = excluded.records_deleted, updated_at = excluded.updated_at`;

/** The checkpoint of an interrupted import of this file, if the file is still the one it was written for. */
async function resumeOf(db: Database, format: string, file: string, identity: FileIdentity): Promise<Resume | null> {
  const [row] = await db.all<CheckpointRow>(`SELECT * FROM reference_import_checkpoints WHERE format = $1 AND file = $2`, [format, file]);
  if (!row) return null;
  if (Number(row.size) !== identity.size || Number(row.mtime_ms) !== identity.mtimeMs || row.head_sha256 !== identity.headSha256) return null;
  return {
    records: Number(row.records),
    byteOffset: Number(row.byte_offset),
    startedAt: Number(row.started_at),
    counts: { read: Number(row.records_read), loaded: Number(row.records_loaded), rejected: Number(row.records_rejected), deleted: Number(row.records_deleted) },
  };
}

interface ImportOptions {
  /** Rows already held are left as they are (the embedded sample never overwrites an operator's file). */
  keepExisting?: boolean;
  /** The checkpoint of this import: its key (format as logged, the file's absolute path) and the file's identity. */
  checkpoint?: { file: string; identity: FileIdentity };
  resume?: Resume | null;
  /** Records the reader gives again that the resumed import had committed (readers that cannot start at an offset). */
  skip?: number;
  /** Collect garbage after each batch (the `reference import` process: flat memory at any size; see collectGarbage). */
  collectEachBatch?: boolean;
}

/** The source id a format's points are kept under (`nad+sample` -> `nad`, the embedded RRAD -> `rrad`). */
function sourceIdOf(format: string): string {
  const base = format.endsWith(SAMPLE_SOURCE_SUFFIX) ? format.slice(0, -SAMPLE_SOURCE_SUFFIX.length) : format;
  return base === EMBEDDED_RRAD_FORMAT ? 'rrad' : SOURCE_OF_FORMAT[base as ReferenceFormat] ?? base;
}

export async function importRecords(
  db: Database,
  format: string,
  file: string,
  records: AsyncIterable<ReferenceRecord>,
  options: ImportOptions = {},
): Promise<ReferenceImportResult> {
  const batches = recordBatches(records, { format, sourceId: sourceIdOf(format), dialect: db.dialect, skip: options.skip });
  return writeBatches(db, format, file, batches, options);
}

/** Commits each batch with its checkpoint (the last one with the import's log line instead), one transaction each. */
async function writeBatches(
  db: Database,
  format: string,
  file: string,
  batches: AsyncIterable<RecordBatch>,
  options: ImportOptions,
): Promise<ReferenceImportResult> {
  const { keepExisting = false, checkpoint, resume } = options;
  const result: ReferenceImportResult = { format, file, read: 0, loaded: 0, deleted: 0, rejected: 0, ...resume?.counts };
  if (resume) result.resumed = { records: resume.records, byte_offset: resume.byteOffset };
  const rejects: { record: number; reason: string }[] = [];
  const startedAt = resume?.startedAt ?? Date.now();
  let consumed = resume?.records ?? 0;
  let byteOffset = resume?.byteOffset ?? 0;
  const pg = db.dialect === 'postgres' ? await PgBulkWriter.open(db) : null;
  // PostgreSQL writes a batch while the next one is taken (the server works on the other core); SQLite writes in-process.
  let inflight: Promise<void> | null = null;
  const checkpointStatement = (): TrailingStatement => [CHECKPOINT_SQL, [format, checkpoint!.file, checkpoint!.identity.size, checkpoint!.identity.mtimeMs,
    checkpoint!.identity.headSha256, byteOffset, consumed, result.read, result.loaded, result.rejected, result.deleted, startedAt, Date.now()]];
  try {
    for await (const batch of batches) {
      consumed += batch.consumed;
      if (batch.end !== null) byteOffset = batch.end;
      result.read += batch.read;
      result.loaded += batch.loaded;
      result.rejected += batch.rejected;
      result.deleted += batch.deleted;
      for (const r of batch.rejects) if (rejects.length < MAX_REJECTS_LISTED) rejects.push(r);
      const trailing: TrailingStatement[] = !batch.last ? (checkpoint ? [checkpointStatement()] : []) : [
        ...(checkpoint ? [[`DELETE FROM reference_import_checkpoints WHERE format = $1 AND file = $2`, [format, checkpoint.file]] as TrailingStatement] : []),
        [`INSERT INTO reference_imports (format, file, records_read, records_loaded, records_rejected, records_deleted, created_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7)`, [format, file, result.read, result.loaded, result.rejected, result.deleted, Date.now()]],
      ];
      if (inflight) await inflight;
      inflight = null;
      if (!pg) writeSqliteBatch(db, batch.rows, keepExisting, trailing);
      else {
        inflight = pg.write(batch.rows, keepExisting, trailing);
        inflight.catch(() => undefined);
      }
      if (options.collectEachBatch) collectGarbage();
    }
    if (inflight) await inflight;
  } finally {
    await (inflight as Promise<void> | null)?.catch(() => undefined);
    await pg?.close();
  }
  if (rejects.length) result.rejects = rejects;
  return result;
}

/** The page cache of an importing SQLite connection (KiB, SQLite's negative form): the primary key's B-tree grows to hundreds of MiB. */
const IMPORT_CACHE_KIB = 32 * 1024;
const IMPORT_CHECKPOINT_MS = 250;

/**
 * SQLite, for the time of an import: WAL checkpoints on a thread of their own (wal-checkpointer.ts; unless the
 * connection already has one), so that a commit does not copy the WAL into the database file and sync it on the
 * writing thread (a 25,000-row batch is some 2,000 pages, twice SQLite's automatic checkpoint: measured, a fifth of the
 * writing thread's time went into the commits' checkpoints); and a larger page cache. Durability is the service's:
 * WAL with synchronous=NORMAL, a committed batch (and its checkpoint) survives the process's end. Returns the undo.
 */
function sqliteForImport(db: Database): () => Promise<void> {
  if (db.dialect !== 'sqlite') return async () => undefined;
  const connection = db.sqlite;
  const file = connection.name;
  const cache = connection.pragma('cache_size', { simple: true }) as number;
  connection.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  const own = file && file !== ':memory:' && Number(connection.pragma('wal_autocheckpoint', { simple: true })) < SAFETY_NET_WAL_PAGES
    ? startWalCheckpointer(connection, file, IMPORT_CHECKPOINT_MS) : null;
  return async () => {
    await own?.stop();
    if (connection.open) connection.pragma(`cache_size = ${cache}`);
  };
}

export function isReferenceFormat(format: string): format is ReferenceFormat {
  return (REFERENCE_FORMATS as readonly string[]).includes(format);
}

/**
 * Imports one reference file; throws (before touching the database) on an unknown format or a missing file. With
 * `sample`, an address-point file holds a sample of addresses (an operator's own past deliveries, a partial extract),
 * not every address of its streets: its points confirm themselves and deny no other number (reference-index.ts).
 * An import of the file that was interrupted goes on from its checkpoint (see the header).
 */
export async function importReferenceFile(
  db: Database, format: string, filePath: string, options: { sample?: boolean; readOn?: 'worker' | 'this-thread' } = {},
): Promise<ReferenceImportResult> {
  if (!isReferenceFormat(format)) {
    throw Object.assign(new Error(`unknown format "${format}"; expected one of ${REFERENCE_FORMATS.join(', ')}`), { code: 'INVALID_ARGUMENT' });
  }
  if (options.sample && !POINT_FORMATS.has(format)) {
    throw Object.assign(new Error(`--sample is for address-point files (${[...POINT_FORMATS].join(', ')}); ${format} lists whole ZIP codes or street ranges`), { code: 'INVALID_ARGUMENT' });
  }
  await fs.promises.access(filePath, fs.constants.R_OK);
  const logged = options.sample ? `${format}${SAMPLE_SOURCE_SUFFIX}` : format;
  const absolute = path.resolve(filePath);
  const identity = await fileIdentity(absolute);
  const resume = await resumeOf(db, logged, absolute, identity);
  const byOffset = RESUMABLE_BY_OFFSET.has(format) && resume !== null && resume.byteOffset > 0;
  const from: ReadFrom | undefined = byOffset ? { offset: resume.byteOffset, header: await headerLine(absolute), record: resume.records + 1 } : undefined;
  const read: WorkerRead = {
    reader: format, path: absolute, from, format: logged, sourceId: sourceIdOf(logged), dialect: db.dialect, skip: resume && !byOffset ? resume.records : 0,
  };
  // The file is read and its rows packed on a worker thread beside the writes (reference-import-worker.ts), or, for
  // a comparison (bench/reference-import.ts --baseline), on this thread between them.
  const batches = options.readOn === 'this-thread' ? batchesOnThisThread(read) : batchesFromWorker(read);
  const restore = sqliteForImport(db);
  try {
    const result = await writeBatches(db, logged, filePath, batches, { checkpoint: { file: absolute, identity }, resume, collectEachBatch: true });
    return options.sample ? { ...result, format, sample: true } : result;
  } finally {
    await restore();
  }
}

/** One import as `reference status` lists it. */
export interface ReferenceImportLogEntry {
  format: string;
  file: string;
  sample: boolean;
  read: number;
  loaded: number;
  deleted: number;
  rejected: number;
  imported_at: string;
}

/** What `reference status` tells: the rows held per table, and every import, the latest first. */
export interface ReferenceStatus {
  points: number;
  /** Points of files imported whole (not samples), which deny the numbers they lack on their streets. */
  points_complete: number;
  ranges: number;
  /** TIGER street segment sides (potential number ranges). */
  segments: number;
  city_names: number;
  postal_codes: { points: number; ranges: number };
  imports: ReferenceImportLogEntry[];
  /** Imports interrupted before their end, which `reference import` of the same file goes on with. */
  in_progress: { format: string; file: string; records: number; byte_offset: number; started_at: string; updated_at: string }[];
}

/** The reference data the database holds, and how it came there. */
export async function referenceStatus(db: Database): Promise<ReferenceStatus> {
  const count = async (sql: string, params: unknown[] = []) => Number((await db.all<{ n: number | string }>(sql, params))[0]?.n ?? 0);
  const imports = await db.all<{
    format: string; file: string; records_read: number | string; records_loaded: number | string; records_deleted: number | string;
    records_rejected: number | string; created_at: number | string;
  }>(`SELECT format, file, records_read, records_loaded, records_deleted, records_rejected, created_at FROM reference_imports ORDER BY id DESC`);
  return {
    points: await count(`SELECT COUNT(*) AS n FROM reference_points`),
    points_complete: await count(`SELECT COUNT(*) AS n FROM reference_points WHERE source <> $1 AND source NOT LIKE $2`, [EMBEDDED_RRAD_FORMAT, `%${SAMPLE_SOURCE_SUFFIX}`]),
    ranges: await count(`SELECT COUNT(*) AS n FROM reference_ranges`),
    segments: await count(`SELECT COUNT(*) AS n FROM reference_segments`),
    city_names: await count(`SELECT COUNT(*) AS n FROM reference_city_names`),
    postal_codes: {
      points: await count(`SELECT COUNT(DISTINCT postal_code) AS n FROM reference_points`),
      ranges: await count(`SELECT COUNT(DISTINCT zip) AS n FROM reference_ranges`),
    },
    imports: imports.map((r) => ({
      format: r.format.endsWith(SAMPLE_SOURCE_SUFFIX) ? r.format.slice(0, -SAMPLE_SOURCE_SUFFIX.length) : r.format,
      file: r.file,
      sample: r.format === EMBEDDED_RRAD_FORMAT || r.format.endsWith(SAMPLE_SOURCE_SUFFIX),
      read: Number(r.records_read),
      loaded: Number(r.records_loaded),
      deleted: Number(r.records_deleted),
      rejected: Number(r.records_rejected),
      imported_at: new Date(Number(r.created_at)).toISOString(),
    })),
    in_progress: (await db.all<{ format: string; file: string; records: number | string; byte_offset: number | string; started_at: number | string; updated_at: number | string }>(
      `SELECT format, file, records, byte_offset, started_at, updated_at FROM reference_import_checkpoints ORDER BY updated_at DESC`,
    )).map((r) => ({
      format: r.format, file: r.file, records: Number(r.records), byte_offset: Number(r.byte_offset),
      started_at: new Date(Number(r.started_at)).toISOString(), updated_at: new Date(Number(r.updated_at)).toISOString(),
    })),
  };
}
