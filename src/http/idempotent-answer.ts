/**
 * A POST answered under its Idempotency-Key (./idempotency.ts, docs/api.md#idempotency), shared by POST /v1/validate
 * and POST /v1/validate/batch: a replay is sent as it was kept; otherwise the work runs under the ledger id that keys
 * its debits (the key's record's, the same for every attempt of it, or the request's own), its 200 answer is kept, and
 * an error frees the key for a retry.
 */
import type { Request, Response } from 'express';
import type { IdempotencyClaim, IdempotencyStore } from './idempotency.js';
import { parseIdempotencyKey } from './idempotency.js';
import { bodyFingerprint } from './middleware/json-body.js';

/** Under what the work's debits are keyed, and whether an earlier attempt may already have debited them. */
export interface LedgerKey {
  ledgerId: string;
  /** An attempt that took over a crashed one: its debits are looked up, not drawn again (CreditLedger.debit's `once`). */
  chargeOnce: boolean;
  /** An Idempotency-Key names the work: a debit cut off with the database is settled by a retry, not refunded. */
  keyed: boolean;
}

export async function answerIdempotently(
  req: Request, res: Response, idempotency: IdempotencyStore, work: (ledger: LedgerKey) => Promise<string>,
): Promise<void> {
  const context = res.locals.context;
  const principal = context.principal!;
  const key = parseIdempotencyKey(req.get('idempotency-key'));
  let claim: IdempotencyClaim | undefined;
  if (key) {
    const start = await idempotency.begin(principal, key, bodyFingerprint(res));
    if (start.replay) {
      res.status(start.status).set('Idempotent-Replayed', 'true').type('application/json').send(start.body);
      return;
    }
    claim = start.claim;
    if (claim.takenOver) context.log.warn({ request_id: context.id, ledger_id: claim.ledgerId }, 'idempotent request taken over after its lease lapsed');
  }
  let json: string;
  try {
    // A new record's ledger id is new, so the first attempt's debit needs no look-up (the ledger's fast way).
    json = await work(claim
      ? { ledgerId: claim.ledgerId, chargeOnce: claim.takenOver, keyed: true }
      : { ledgerId: context.ledgerId, chargeOnce: false, keyed: false });
  } catch (err) {
    // Nothing was charged (the use case refunds on its own failures); the key is free for a retry.
    if (key && claim) await idempotency.abandon(principal, key, claim).catch(() => undefined);
    throw err;
  }
  if (key && claim) {
    try {
      await idempotency.complete(principal, key, claim, 200, json);
    } catch (err) {
      // The work is done and paid for: the caller gets its answer even if it cannot be kept for a replay.
      context.log.error({ err, request_id: context.id }, 'idempotent answer not stored');
      await idempotency.abandon(principal, key, claim).catch(() => undefined);
    }
  }
  // Straight to Node: Express's send() would look for an ETag and freshness this answer never has.
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) }).end(json);
}
