/**
 * A CSV batch waits for its e-mail answers that arrive later (docs/batches.md#answers-that-arrive-later): once a
 * chunk's records are all kept, its attempt goes on (holding the chunk's lease) until none of the batch's checks is
 * pending, or until BATCH_EMAIL_CHECK_WAIT_MS has passed since the newest was opened, mending the rows whose answers
 * came; then the chunk is done and, the last one, the batch completes with them. The wait's state is the database's
 * (the checks' rows), so a restart picks it up where it was.
 */
import type { Chunk, Job } from '../bulk/job-store.js';
import type { ChunkAttempt, JobKind, WorkOutcome } from '../bulk/runner.js';
import type { EmailChecks } from './email-checks.js';

/** How often a waiting batch looks at its checks. */
const LOOK_EVERY_MS = 250;

export function waitingForEmailChecks(kind: JobKind, checks: EmailChecks, now: () => number = Date.now): JobKind {
  if (checks.batchWaitMs <= 0) return kind;
  return {
    ...kind,
    async work(job: Job, chunk: Chunk, attempt: ChunkAttempt): Promise<WorkOutcome> {
      const outcome = await kind.work(job, chunk, attempt);
      if (outcome.kind !== 'done') return outcome;
      for (;;) {
        await checks.mendJob(job.id);
        const state = await checks.jobState(job.id);
        if (state.pending === 0 || (state.waitUntil !== null && now() >= state.waitUntil)) return outcome;
        if (attempt.shouldStop()) return { kind: 'stopped' };
        await new Promise((resolve) => setTimeout(resolve, LOOK_EVERY_MS));
      }
    },
  };
}
