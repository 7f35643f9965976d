/**
 * Where connectors' change streams are kept (migration ConnectorStreams): the lease of the one instance that listens
 * for a connector, the position the stream reached (kept once what it named is written back), and its status.
 */
import type { Database } from '../db/data-source.js';
import type { StreamPosition } from './plugin.js';

export type StreamStatus = 'listening' | 'dropped';

export class StreamStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes the connector's stream if nobody holds it (or the holder's lease ran out): one subscription across the fleet. */
  async claim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const at = this.now();
    return (await this.db.run(
      `UPDATE connectors SET stream_owner = $2, stream_lease_until = $3
       WHERE id = $1 AND (stream_owner IS NULL OR stream_owner = $2 OR stream_lease_until < $4)`,
      [id, owner, at + leaseMs, at],
    )) === 1;
  }

  /** False when another instance took it meanwhile (this one's lease had run out): the caller stops listening. */
  async renew(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await this.db.run(
      `UPDATE connectors SET stream_lease_until = $3 WHERE id = $1 AND stream_owner = $2`, [id, owner, this.now() + leaseMs],
    )) === 1;
  }

  async release(id: string, owner: string): Promise<void> {
    await this.db.run(`UPDATE connectors SET stream_owner = NULL, stream_lease_until = NULL WHERE id = $1 AND stream_owner = $2`, [id, owner]);
  }

  async position(id: string): Promise<StreamPosition> {
    const rows = await this.db.all<{ stream_position: string }>(`SELECT stream_position FROM connectors WHERE id = $1`, [id]);
    return rows[0] ? (JSON.parse(rows[0].stream_position) as StreamPosition) : {};
  }

  /** The position, written only by the lease's holder (an instance that lost the stream does not move it back). */
  async savePosition(id: string, owner: string, position: StreamPosition): Promise<void> {
    await this.db.run(`UPDATE connectors SET stream_position = $3 WHERE id = $1 AND stream_owner = $2`, [id, owner, JSON.stringify(position)]);
  }

  async setStatus(id: string, status: StreamStatus | null, detail: string | null): Promise<void> {
    await this.db.run(`UPDATE connectors SET stream_status = $2, stream_detail = $3 WHERE id = $1`, [id, status, detail?.slice(0, 500) ?? null]);
  }

  async status(id: string): Promise<{ status: StreamStatus | null; detail: string | null; owner: string | null }> {
    const rows = await this.db.all<{ stream_status: StreamStatus | null; stream_detail: string | null; stream_owner: string | null }>(
      `SELECT stream_status, stream_detail, stream_owner FROM connectors WHERE id = $1`, [id],
    );
    return { status: rows[0]?.stream_status ?? null, detail: rows[0]?.stream_detail ?? null, owner: rows[0]?.stream_owner ?? null };
  }
}
