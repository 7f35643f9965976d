/**
 * Two of a connector job's flows over the shared page work (connector-pages.ts): a run reads the platform's changes
 * since the watermark, page after page; a webhook delivery validates the records it carried. The third, the e-mail
 * answers that arrived later, is `ConnectorPages.writeLater`. connector-runs.ts starts them and ends their runs.
 */
import type { FlowOutcome } from '../bulk/process-records.js';
import type { AttemptWork, ConnectorPages } from './connector-pages.js';
import type { PlatformRecord } from './plugin.js';

/** The next item is asked for as soon as one is given: the platform reads page N+1 while page N is worked on. */
async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  for (;;) {
    const item = await next;
    if (item.done) return;
    next = iterator.next();
    next.catch(() => undefined); // awaited on the next turn of the loop
    yield item.value;
  }
}


/** The platform's changes since the watermark, a page at a time; the watermark moves once a page is written. */
export async function workChanges(pages: ConnectorPages, work: AttemptWork): Promise<FlowOutcome> {
  const { jobId, connector, session, counts, errors, shouldStop, progress } = work;
  if (pages.options.publicBaseUrl && session.ensureWebhooks) {
    // A failed subscription does not stop the sync: the schedule still reads every change.
    await session.ensureWebhooks(new URL(`/webhooks/${connector.type}`, pages.options.publicBaseUrl).toString())
      .catch((err: unknown) => pages.log.warn({ err: (err as Error).message, connector_id: connector.id }, 'webhooks not subscribed'));
  }
  await pages.retryPendingWrites(connector, session, counts, errors);
  await pages.writeLater(work);

  const seen = new Set<string>();
  let outcome: FlowOutcome = { kind: 'done' };
  // A page is validated while the one before it is written back and the next one is read: the run waits on the
  // platform's API, not on both in turn. The watermark moves only once its page is written.
  let writing: Promise<void> | null = null;
  // Once a page owes a record a check, the watermark stays before it: the next run reads the record again.
  let owesChecks = false;
  for await (const page of readAhead(session.changes(connector.watermark))) {
    if (shouldStop()) {
      outcome = { kind: 'stopped' };
      break;
    }
    if (await pages.stoppedByCap(jobId, connector)) break;
    for (const r of page.records) seen.add(r.key);
    counts.records_read = seen.size;
    const budget = await pages.capBudget(connector);
    const validated = await pages.validatePage(connector, page.records, counts, errors, shouldStop, budget, work.policy);
    await writing;
    const done = validated.outcome.kind === 'done';
    writing = pages.writePage(connector, session, validated, counts, errors)
      .then((owes) => {
        owesChecks ||= owes;
        return done && !owesChecks ? pages.store.update(connector.id, { watermark: page.watermark }) : undefined;
      })
      .then(progress);
    writing.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    if (!done) {
      // Stopped by the cap's budget rather than told to stop: the job ends paused by the cap, its watermark kept.
      const byCap = validated.outcome.kind === 'stopped' && !shouldStop() && (await pages.stoppedByCap(jobId, connector, 0.5));
      outcome = byCap ? { kind: 'done' } : validated.outcome;
      break;
    }
  }
  await writing;
  if (outcome.kind === 'done' && !pages.capped.has(jobId)) await pages.stoppedByCap(jobId, connector, 0.5);
  return outcome;
}

/** The records a webhook delivered: validated and written back. */
export async function workDelivery(pages: ConnectorPages, work: AttemptWork, records: PlatformRecord[]): Promise<FlowOutcome> {
  const { jobId, connector, session, counts, errors, shouldStop } = work;
  counts.records_read = records.length;
  if (await pages.stoppedByCap(jobId, connector)) return { kind: 'done' };
  const validated = await pages.validatePage(connector, records, counts, errors, shouldStop, await pages.capBudget(connector), work.policy);
  await pages.writePage(connector, session, validated, counts, errors);
  if (validated.outcome.kind === 'paused' || shouldStop()) return validated.outcome;
  // Done, or stopped by the cap's budget: a cap reached now pauses the connector as the job ends.
  return (await pages.stoppedByCap(jobId, connector, 0.5)) || validated.outcome.kind === 'done' ? { kind: 'done' } : validated.outcome;
}
