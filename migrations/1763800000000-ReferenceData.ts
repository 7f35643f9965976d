import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Address reference data (src/db/reference-store.ts): address points, USPS street ranges with ZIP+4 add-ons, USPS
 * city names per ZIP, and a log of imports. Each table has its natural key as primary key so that a re-import
 * upserts instead of duplicating; parts of a key that may be absent are stored as '' rather than NULL.
 */
export class ReferenceData1763800000000 implements MigrationInterface {
  name = 'ReferenceData1763800000000';

  async up(q: QueryRunner): Promise<void> {
    const pg = q.connection.options.type === 'postgres';
    const serial = pg ? 'BIGSERIAL PRIMARY KEY' : 'INTEGER PRIMARY KEY AUTOINCREMENT';
    await q.query(`CREATE TABLE reference_points (
      postal_code TEXT NOT NULL,
      street_key TEXT NOT NULL,
      primary_number TEXT NOT NULL,
      unit TEXT NOT NULL DEFAULT '',
      predirection TEXT,
      street_name TEXT NOT NULL,
      suffix TEXT,
      postdirection TEXT,
      plus4 TEXT,
      source TEXT NOT NULL,
      PRIMARY KEY (postal_code, street_key, primary_number, unit))`);
    await q.query(`CREATE TABLE reference_ranges (
      zip TEXT NOT NULL,
      street_key TEXT NOT NULL,
      record_type TEXT NOT NULL,
      primary_low TEXT NOT NULL,
      primary_high TEXT NOT NULL,
      primary_parity TEXT NOT NULL,
      secondary_low TEXT NOT NULL DEFAULT '',
      secondary_high TEXT NOT NULL DEFAULT '',
      secondary_designator TEXT,
      secondary_parity TEXT,
      predirection TEXT,
      street_name TEXT NOT NULL,
      suffix TEXT,
      postdirection TEXT,
      plus4_low TEXT,
      plus4_high TEXT,
      source TEXT NOT NULL,
      PRIMARY KEY (zip, street_key, record_type, primary_low, primary_high, primary_parity, secondary_low, secondary_high))`);
    await q.query(`CREATE TABLE reference_city_names (
      zip TEXT NOT NULL,
      city TEXT NOT NULL,
      state TEXT NOT NULL,
      mailing_name BOOLEAN NOT NULL,
      preferred_name TEXT NOT NULL,
      PRIMARY KEY (zip, city))`);
    await q.query(`CREATE TABLE reference_imports (
      id ${serial},
      format TEXT NOT NULL,
      file TEXT NOT NULL,
      records_read INTEGER NOT NULL,
      records_loaded INTEGER NOT NULL,
      records_rejected INTEGER NOT NULL,
      created_at BIGINT NOT NULL)`);
    await q.query(`CREATE INDEX reference_imports_format ON reference_imports(format)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['reference_imports', 'reference_city_names', 'reference_ranges', 'reference_points']) await q.query(`DROP TABLE ${t}`);
  }
}
