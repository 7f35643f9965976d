/**
 * Issue #50 items 3 and 4 end to end: a file imported through the real CLI (`reference import`), the service started on
 * that database, and /v1/validate naming what confirmed the address and where it is.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startTestService } from '../support/service.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const GOOGLEPLEX = '1600 Amphitheatre Parkway, Mountain View, CA 94043';

describe.each(testDatabases)('address evidence and location from imported files on $name', (database) => {
  const importFile = async (url: string, format: string, file: string) => JSON.parse((await run(process.execPath,
    ['scripts/start.mjs', 'cli', 'reference', 'import', '--format', format, file], { cwd: root, env: { ...process.env, DATABASE_URL: url } })).stdout);

  const answersAfter = async (format: string, file: string, addresses: string[]) => {
    const url = await database.create();
    expect(await importFile(url, format, file)).toMatchObject({ loaded: expect.any(Number) });
    const service = await startTestService(url);
    try {
      const { apiKey } = await service.newAccount(10);
      const out = [];
      for (const address of addresses) out.push(((await (await service.post('/v1/validate', { address }, { key: apiKey })).json()) as any).address);
      return out;
    } finally {
      await service.close();
      await database.dropAll();
    }
  };

  it('When an OpenAddresses file with LON/LAT is imported, then its point confirms the address at the file\'s coordinates', async () => {
    // Arrange: the fixture's first row is LON -122.0842, LAT 37.4224, 1600 Amphitheatre Parkway, 94043.
    // Act
    const [point] = await answersAfter('openaddresses', 'test/address/fixtures/openaddresses-sample.csv', [GOOGLEPLEX]);
    // Assert
    expect(point).toMatchObject({
      status: 'verified', dpv: 'Y', evidence: 'address_point', sources: ['openaddresses'],
      location: { lat: 37.4224, lon: -122.0842, precision: 'parcel' },
    });
  });

  it('When a USPS ZIP+4 file is imported, then its range confirms a delivery point of usps, placed at the ZIP\'s centre', async () => {
    const [range] = await answersAfter('usps-zip4', 'test/address/fixtures/usps-zip4-sample.txt', [GOOGLEPLEX]);
    expect(range).toMatchObject({ dpv: 'Y', zip4: '94043-1351', evidence: 'delivery_point' });
    // A ZIP+4 range has no coordinates: the ZIP's GeoNames centre, and no more is claimed.
    expect(range.location).toMatchObject({ precision: 'postal_code' });
  });
});
