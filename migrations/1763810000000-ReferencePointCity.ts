import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The place name an address file gives each point (OpenAddresses CITY, the NAR's Canada Post municipality, RRAD's
 * city): the names local address data uses for a postal code, accepted beside USPS's where USPS City-State data does
 * not name the ZIP. The embedded RRAD points are seeded again at the next start (an upsert) so that theirs are filled.
 */
export class ReferencePointCity1763810000000 implements MigrationInterface {
  name = 'ReferencePointCity1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reference_points ADD COLUMN city TEXT NOT NULL DEFAULT ''`);
    await q.query(`DELETE FROM reference_imports WHERE format = 'rrad-embedded'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE reference_points DROP COLUMN city`);
  }
}
