/**
 * Where webhook endpoints live: `webhook_endpoints`, the signing secret sealed (src/sync/secrets.ts). Every query
 * names the account: one account never reaches another's endpoints.
 */
import type { Database } from '../db/data-source.js';
import type { Sealed } from '../kit/secrets.js';
import type { WebhookEventType } from './events.js';

export interface EndpointRow {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEventType[];
  sealed: Sealed;
  createdAt: number;
}

const COLUMNS = 'id, account_id, url, events, secret, secret_key_id, created_at';

function endpointOf(r: Record<string, unknown>): EndpointRow {
  return {
    id: String(r.id), accountId: String(r.account_id), url: String(r.url), events: JSON.parse(String(r.events)),
    sealed: { secret: String(r.secret), keyId: String(r.secret_key_id) }, createdAt: Number(r.created_at),
  };
}

export class EndpointStore {
  constructor(private readonly db: Database) {}

  async insert(e: EndpointRow): Promise<void> {
    await this.db.run(
      `INSERT INTO webhook_endpoints (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [e.id, e.accountId, e.url, JSON.stringify(e.events), e.sealed.secret, e.sealed.keyId, e.createdAt],
    );
  }

  async count(accountId: string): Promise<number> {
    const [row] = await this.db.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = $1`, [accountId]);
    return Number(row?.n ?? 0);
  }

  async getOwn(accountId: string, id: string): Promise<EndpointRow | null> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [id, accountId],
    );
    return rows[0] ? endpointOf(rows[0]) : null;
  }

  /** The account's endpoints, newest first. */
  async list(accountId: string): Promise<EndpointRow[]> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at DESC, id DESC`, [accountId],
    );
    return rows.map(endpointOf);
  }

  /** Deletes the endpoint and its delivery log (ON DELETE CASCADE); false when the account has no such endpoint. */
  async delete(accountId: string, id: string): Promise<boolean> {
    await this.db.run(`DELETE FROM webhook_endpoint_deliveries WHERE endpoint_id = $1 AND account_id = $2`, [id, accountId]);
    return (await this.db.run(`DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, [id, accountId])) === 1;
  }
}
