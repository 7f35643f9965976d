import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * National reference data (issue #50; src/db/reference-import.ts):
 * - reference_points gains the point's coordinates and their precision (`rooftop`, or `parcel` where the NAD's
 *   Placement says a parcel centroid), and `sources`: the ids of every file that holds the point, comma-separated
 *   (`nad,openaddresses`: one point, two sources). `source` stays: the format of the import that wrote it last, which
 *   says whether the point is a sample. Existing points get their own source as their one source.
 * - reference_segments holds TIGER/Line ADDRFEAT sides: a ZIP's street with a potential number range and the
 *   segment's ends, evidence that the street holds the range, never that a house exists.
 * - reference_import_checkpoints lets an interrupted import go on: per file, how far the committed rows reach (byte
 *   offset and record number), written in the same transaction as the rows, and what identifies the file (size,
 *   mtime, SHA-256 of its first MiB). A finished import deletes its checkpoint and logs itself in reference_imports.
 */
export class ReferencePointLocation1765100000000 implements MigrationInterface {
  name = 'ReferencePointLocation1765100000000';

  async up(q: QueryRunner): Promise<void> {
    const pg = q.connection.options.type === 'postgres';
    // (PostgreSQL's REAL is 4 bytes, about 1 m at these longitudes: degrees need DOUBLE PRECISION there.)
    const degrees = pg ? 'DOUBLE PRECISION' : 'REAL';
    await q.query(`ALTER TABLE reference_points ADD COLUMN lat ${degrees}`);
    await q.query(`ALTER TABLE reference_points ADD COLUMN lon ${degrees}`);
    await q.query(`ALTER TABLE reference_points ADD COLUMN precision TEXT`);
    await q.query(`ALTER TABLE reference_points ADD COLUMN sources TEXT NOT NULL DEFAULT ''`);
    await q.query(`UPDATE reference_points SET sources = CASE WHEN source = 'rrad-embedded' THEN 'rrad' ELSE REPLACE(source, '+sample', '') END`);
    await q.query(`CREATE TABLE reference_segments (
      postal_code TEXT NOT NULL,
      street_key TEXT NOT NULL,
      predirection TEXT,
      street_name TEXT NOT NULL,
      suffix TEXT,
      postdirection TEXT,
      from_number TEXT NOT NULL,
      to_number TEXT NOT NULL,
      parity TEXT NOT NULL,
      from_lat ${degrees},
      from_lon ${degrees},
      to_lat ${degrees},
      to_lon ${degrees},
      source TEXT NOT NULL,
      PRIMARY KEY (postal_code, street_key, from_number, to_number, parity))`);
    await q.query(`CREATE TABLE reference_import_checkpoints (
      format TEXT NOT NULL,
      file TEXT NOT NULL,
      size BIGINT NOT NULL,
      mtime_ms BIGINT NOT NULL,
      head_sha256 TEXT NOT NULL,
      byte_offset BIGINT NOT NULL,
      records BIGINT NOT NULL,
      records_read BIGINT NOT NULL,
      records_loaded BIGINT NOT NULL,
      records_rejected BIGINT NOT NULL,
      records_deleted BIGINT NOT NULL,
      started_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (format, file))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE reference_import_checkpoints`);
    await q.query(`DROP TABLE reference_segments`);
    for (const c of ['sources', 'precision', 'lon', 'lat']) await q.query(`ALTER TABLE reference_points DROP COLUMN ${c}`);
  }
}
