/**
 * What the core gives a store plugin for the orders it checks at purchase (its order port, order-port.ts): the order
 * books, the connector of a platform account or id with its credentials, one check of an order's contact charged
 * once per order (its edits and re-checks cost nothing more), the guarded way out to the platform, mail to the buyer,
 * and the signed link of the buyer's confirmation page. The plugin says what an order means; this keeps the books.
 */
import crypto from 'node:crypto';
import type { ContactAnswer, ContactValidation } from '../contact-check/validate-contact.js';
import type { Logger } from '../log.js';
import type { GuardedHttp, OutboundPolicy } from '../net/outbound-guard.js';
import { readLink, signLink } from '../people/signed-links.js';
import type { ConnectorRow, ConnectorStore } from './connector-store.js';
import type { CreditCaps } from './credit-caps.js';
import { OrderBook } from './order-book.js';
import { platformGuard } from './platform-access.js';
import { checkPlatformUrl } from '../net/platform-url.js';
import type { RecordContact } from './plugin.js';
import type { SecretBox } from '../kit/secrets.js';

export { InsufficientCredits } from '../contact-check/errors.js';
export type { ContactAnswer } from '../contact-check/validate-contact.js';

/** How long the buyer's link to confirm an address works. */
const LINK_DAYS = 30;

export interface OrderMail { to: string; subject: string; text: string }

export interface OrderCheckOptions {
  outbound: OutboundPolicy;
  allowPrivate: boolean;
  /** Where the buyer's page is served (PUBLIC_BASE_URL, else the service's own address). */
  baseUrl: () => string;
  /** Connectors' monthly credit caps: an order's first check waits for none, but is not made past one. */
  caps?: CreditCaps;
}


export class OrderChecks {
  readonly book: OrderBook;
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    db: ConstructorParameters<typeof OrderBook>[0],
    private readonly store: ConnectorStore,
    private readonly secrets: SecretBox,
    private readonly validation: ContactValidation,
    private readonly mailer: { send(message: OrderMail): Promise<void> },
    private readonly linkSecret: () => Promise<Buffer>,
    readonly log: Logger,
    private readonly options: OrderCheckOptions,
    readonly now: () => number = Date.now,
  ) {
    this.book = new OrderBook(db, now);
  }

  /** A connector by id, or by its platform account (a shop), with its credentials; null when none (or unsealable). */
  async connector(by: { id: string } | { type: string; platformKey: string }): Promise<{ connector: ConnectorRow; credentials: Record<string, unknown> } | null> {
    const connector = 'id' in by ? await this.store.get(by.id) : await this.store.byPlatformKey(by.type, by.platformKey.toLowerCase());
    if (!connector) return null;
    try {
      return { connector, credentials: this.secrets.open<Record<string, unknown>>(connector.sealed) };
    } catch {
      return null;
    }
  }

  /**
   * The order's contact checked with the same engines and prices as /v1/validate, charged once per order under its
   * charge key: a repeated delivery, an edit or the buyer's correction is checked again free. Throws InsufficientCredits when the account
   * cannot pay for the first check.
   */
  check(connector: ConnectorRow, chargeKey: string, contact: RecordContact): Promise<ContactAnswer> {
    // The same request id as the connector's runs give the record (PlatformRecord.chargeKey): one charge in all.
    return this.validation.validate(connector.accountId, `${connector.id}:${chargeKey}`, { ...contact, smtp: true }, this.now(), this.log, { chargeOnce: true });
  }

  /**
   * Whether the connector's monthly credit cap leaves no room for an order's first check (its owner is told, once a
   * month, as a run's stop tells them; the runs pause the connector).
   */
  async capReached(connector: ConnectorRow): Promise<boolean> {
    const capped = await this.options.caps?.reached(connector);
    if (!capped) return false;
    // The runs' and deliveries' rule: the connector pauses at its cap until the month turns or the cap is raised.
    await this.store.update(connector.id, {
      status: 'paused', reason: 'credit_cap_reached', reasonDetail: `${capped.spent} of the connector's ${capped.cap} credits this month are used`,
    });
    return true;
  }

  /**
   * The way out to a connector's platform, as its runs have it: each URL checked first (https on a public address;
   * its own origins on loopback only under CONNECTOR_ALLOW_PRIVATE), then every request through the outbound guard.
   */
  async guard(urls: string[]): Promise<GuardedHttp> {
    for (const url of urls) await checkPlatformUrl(url, this.options.allowPrivate);
    return platformGuard(this.options, urls);
  }

  mail(message: OrderMail): Promise<void> {
    return this.mailer.send(message);
  }

  /** The buyer's page for this order, signed: it names the connector and the order, and works LINK_DAYS days. */
  async confirmationLink(connectorId: string, orderKey: string): Promise<string> {
    const token = signLink(await this.linkSecret(), {
      purpose: 'order-address', userId: `${connectorId} ${orderKey}`, expiresAt: this.now() + LINK_DAYS * 86_400_000, stamp: '',
    });
    return `${this.options.baseUrl().replace(/\/+$/, '')}/orders/address?token=${encodeURIComponent(token)}`;
  }

  /** The connector and order a link names, or null when it is forged, altered or expired. */
  async readConfirmationLink(token: unknown): Promise<{ connectorId: string; orderKey: string } | null> {
    const payload = readLink(await this.linkSecret(), token, 'order-address', this.now());
    const [connectorId, orderKey, extra] = payload?.userId.split(' ') ?? [];
    return connectorId && orderKey && extra === undefined ? { connectorId, orderKey } : null;
  }

  /** Work done after the answer went out (a delivery's order check), waited for by `settle`. */
  track(work: Promise<unknown>): void {
    const tracked = work.catch((err: unknown) => this.log.error({ err }, 'order check failed'));
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  async settle(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }
}

/** A short hash of an address's text: whether an update changed it. */
export const addressHash = (text: string | undefined) => (text ? crypto.createHash('sha256').update(text).digest('base64url').slice(0, 22) : null);
