/**
 * Reference records cut into the batches an import commits, one transaction and one checkpoint each: each record
 * becomes its table's row (reference-writes.ts), and every ROWS_PER_TRANSACTION rows the batch is packed for its
 * database (PendingRows) with what the checkpoint records: how many records it took, where in the file the last ended,
 * the counts. The same code runs on the worker thread that reads a file (reference-import-worker.ts) and, for records
 * from elsewhere (the shipped RRAD sample) or without a worker, on the importing thread.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import {
  CITY_NAMES, POINTS, PendingRows, RANGES, SEGMENTS, cityRow, pointRow, rangeRow, segmentRow, type PackedRows,
} from './reference-writes.js';
import type { ReferenceRecord } from '../validation/address/reference-formats/index.js';

/** Rows per transaction (and so per checkpoint): large enough that a durable commit costs little per row. */
export const ROWS_PER_TRANSACTION = 25_000;
export const MAX_REJECTS_LISTED = 100;

export interface RecordBatch {
  rows: PackedRows;
  /** Records taken from the reader for this batch (rejected ones included; not those skipped). */
  consumed: number;
  read: number;
  loaded: number;
  rejected: number;
  deleted: number;
  /** The byte offset past the batch's last record that told one (CSV readers); null when none did. */
  end: number | null;
  /** The first rejected records of the import (at most MAX_REJECTS_LISTED in all batches together). */
  rejects: { record: number; reason: string }[];
  /** The reader's end: the import commits its log line with this batch. */
  last: boolean;
}

export interface BatchOptions {
  /** The format as logged (the rows' `source`: `nad`, `nad+sample`, `rrad-embedded`). */
  format: string;
  /** The source id the points are kept under (`sources`). */
  sourceId: string;
  dialect: 'sqlite' | 'postgres';
  /** Records the reader gives again that a resumed import had committed (readers that cannot start at an offset). */
  skip?: number;
  rowsPerBatch?: number;
}

export async function* recordBatches(records: AsyncIterable<ReferenceRecord>, options: BatchOptions): AsyncGenerator<RecordBatch> {
  const { format, sourceId, dialect, rowsPerBatch = ROWS_PER_TRANSACTION } = options;
  let skip = options.skip ?? 0;
  let listed = 0;
  let pending = new PendingRows(dialect);
  let batch = { consumed: 0, read: 0, loaded: 0, rejected: 0, deleted: 0, end: null as number | null, rejects: [] as RecordBatch['rejects'] };
  const cut = (last: boolean): RecordBatch => {
    const done: RecordBatch = { rows: pending.pack(), ...batch, last };
    pending = new PendingRows(dialect);
    batch = { consumed: 0, read: 0, loaded: 0, rejected: 0, deleted: 0, end: null, rejects: [] };
    return done;
  };
  for await (const record of records) {
    if (skip > 0) {
      skip--;
      continue;
    }
    batch.consumed++;
    if (record.end !== undefined) batch.end = record.end;
    batch.read++;
    switch (record.kind) {
      case 'point':
        pending.add(POINTS, pointRow(record.point, format, sourceId));
        batch.loaded++;
        break;
      case 'range':
        pending.add(RANGES, rangeRow(record.range, format));
        batch.loaded++;
        break;
      case 'range-deleted':
        pending.delete(RANGES, rangeRow(record.range, format));
        batch.deleted++;
        break;
      case 'city':
        pending.add(CITY_NAMES, cityRow(record.city));
        batch.loaded++;
        break;
      case 'segment':
        pending.add(SEGMENTS, segmentRow(record.segment));
        batch.loaded++;
        break;
      case 'rejected':
        batch.rejected++;
        if (listed < MAX_REJECTS_LISTED) {
          listed++;
          batch.rejects.push({ record: record.record, reason: record.reason });
        }
        continue;
    }
    if (pending.size >= rowsPerBatch) yield cut(false);
  }
  yield cut(true);
}

/**
 * A full garbage collection when the heap has grown by GC_GROWTH since the last one, for the importing process and
 * its reading thread: each batch's rows live long enough to be promoted to V8's old generation, where V8 lets them
 * pile up as garbage to several hundred MiB before it collects (measured: 414 MiB peak at 1 M points without). A
 * collection after every batch cost more than its memory is worth (measured: 68 ms a collection on the importing
 * thread, 3 µs a point); one every GC_GROWTH of growth (about two batches) keeps a thread within that of its live
 * size, whatever the file's size, at a fraction of the cost. A no-op where V8 does not give it.
 */
const GC_GROWTH = 24 * 1024 * 1024;
const fullCollection = ((): (() => void) | null => {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
})();
let heapAfterCollection = 0;
export function collectGarbage(): void {
  if (!fullCollection) return;
  const used = v8.getHeapStatistics().used_heap_size;
  if (used - heapAfterCollection < GC_GROWTH) return;
  fullCollection();
  heapAfterCollection = v8.getHeapStatistics().used_heap_size;
}
