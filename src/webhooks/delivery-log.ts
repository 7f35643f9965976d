/**
 * The durable delivery log: one row per event and endpoint (`webhook_endpoint_deliveries`), with its attempts, the
 * last answer (status and a short tenant-safe text), and when it is due again. A due delivery is claimed by a
 * conditional UPDATE that takes a lease (`lease_owner`, `lease_until`): of several instances claiming at once, one
 * gets each row, and a row whose instance died comes back once its lease has run out. Nothing lives in memory only,
 * so a restart loses no retry.
 */
import type { Database } from '../db/data-source.js';
import { keysetPage, type Page, type PageQuery } from '../db/pages.js';
import type { WebhookEventType } from './events.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  id: string;
  endpointId: string;
  accountId: string;
  eventId: string;
  eventType: WebhookEventType;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  responseText: string | null;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  createdAt: number;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  responseStatus: number | null;
  responseText: string;
  /** When to try again (a failure within the retry window), else null. */
  nextAttemptAt: number | null;
}

const COLUMNS = `id, endpoint_id, account_id, event_id, event_type, body, status, attempts, response_status, response_text,
  next_attempt_at, last_attempt_at, created_at`;

const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function deliveryOf(r: Record<string, unknown>): DeliveryRow {
  return {
    id: String(r.id), endpointId: String(r.endpoint_id), accountId: String(r.account_id), eventId: String(r.event_id),
    eventType: r.event_type as WebhookEventType, body: String(r.body), status: r.status as DeliveryStatus,
    attempts: Number(r.attempts), responseStatus: numberOrNull(r.response_status),
    responseText: (r.response_text as string | null) ?? null, nextAttemptAt: numberOrNull(r.next_attempt_at),
    lastAttemptAt: numberOrNull(r.last_attempt_at), createdAt: Number(r.created_at),
  };
}

export class DeliveryLog {
  constructor(private readonly db: Database) {}

  /**
   * A pending delivery of an event to each endpoint, due at once. An event already logged for an endpoint under the
   * same key (emitted again, or by another instance) is not logged twice. Returns the ids of the new rows.
   */
  async add(rows: { id: string; endpointId: string; accountId: string; eventId: string; eventType: WebhookEventType; eventKey: string; body: string }[], at: number): Promise<number> {
    let added = 0;
    for (const r of rows) {
      added += await this.db.run(
        `INSERT INTO webhook_endpoint_deliveries (id, endpoint_id, account_id, event_id, event_type, event_key, body, status,
           next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $8)
         ON CONFLICT (endpoint_id, event_key) DO NOTHING`,
        [r.id, r.endpointId, r.accountId, r.eventId, r.eventType, r.eventKey, r.body, at],
      );
    }
    return added;
  }

  /** Up to `limit` due deliveries, leased to `owner` until `leaseUntil`: nobody else sends them meanwhile. */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db.all<Record<string, unknown>>(
      `UPDATE webhook_endpoint_deliveries SET lease_owner = $1, lease_until = $3
       WHERE id IN (SELECT id FROM webhook_endpoint_deliveries
                    WHERE status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
                    ORDER BY next_attempt_at LIMIT $4)
         AND status = 'pending' AND next_attempt_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
       RETURNING ${COLUMNS}`,
      [owner, now, leaseUntil, limit],
    );
    return rows.map(deliveryOf);
  }

  /**
   * One of the account's deliveries, leased to `owner` for a redelivery now, whatever its status; null when the
   * account has no such delivery on that endpoint, or another instance is sending it at this moment.
   */
  async claimOne(accountId: string, endpointId: string, id: string, owner: string, now: number, leaseUntil: number): Promise<DeliveryRow | null> {
    const rows = await this.db.all<Record<string, unknown>>(
      `UPDATE webhook_endpoint_deliveries SET lease_owner = $4, lease_until = $6
       WHERE id = $3 AND endpoint_id = $2 AND account_id = $1 AND (lease_until IS NULL OR lease_until < $5)
       RETURNING ${COLUMNS}`,
      [accountId, endpointId, id, owner, now, leaseUntil],
    );
    return rows[0] ? deliveryOf(rows[0]) : null;
  }

  /** Writes an attempt's outcome and lets go of the lease (only the lease's holder may). */
  async recordAttempt(id: string, owner: string, at: number, outcome: AttemptOutcome): Promise<void> {
    const status: DeliveryStatus = outcome.ok ? 'succeeded' : outcome.nextAttemptAt === null ? 'failed' : 'pending';
    await this.db.run(
      `UPDATE webhook_endpoint_deliveries SET status = $3, attempts = attempts + 1, response_status = $4, response_text = $5,
         next_attempt_at = $6, last_attempt_at = $7, lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [id, owner, status, outcome.responseStatus, outcome.responseText, outcome.nextAttemptAt, at],
    );
  }

  /** Forgets finished deliveries (succeeded or given up) last tried before `before`. Returns how many. */
  prune(before: number): Promise<number> {
    return this.db.run(
      `DELETE FROM webhook_endpoint_deliveries WHERE status IN ('succeeded', 'failed') AND last_attempt_at < $1`, [before],
    );
  }

  async getOwn(accountId: string, endpointId: string, id: string): Promise<DeliveryRow | null> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM webhook_endpoint_deliveries WHERE id = $1 AND endpoint_id = $2 AND account_id = $3`,
      [id, endpointId, accountId],
    );
    return rows[0] ? deliveryOf(rows[0]) : null;
  }

  /** An endpoint's deliveries, newest first. */
  /** An endpoint's deliveries, newest first, a page at a time (src/db/pages.ts). */
  async list(accountId: string, endpointId: string, page: PageQuery): Promise<Page<DeliveryRow>> {
    const found = await keysetPage<Record<string, unknown>>(this.db, {
      table: 'webhook_endpoint_deliveries', columns: COLUMNS, where: 'endpoint_id = $1 AND account_id = $2', params: [endpointId, accountId], time: 'created_at',
    }, page);
    return { items: found.items.map(deliveryOf), hasMore: found.hasMore };
  }
}
