/**
 * A job kind's settings (the `settings` column of bulk_jobs) as one zod schema: checked when a job is stored, so that
 * nothing off its shape is written, and when it is read, so that a kind's code gets its own type and not a cast. A row
 * written by an older release that no longer fits says so by the job and kind it belongs to.
 */
import type { z } from 'zod';
import type { Job } from './job-store.js';

export class JobSettings<Settings extends object> {
  constructor(readonly kind: string, private readonly schema: z.ZodType<Settings>) {}

  /** What `JobStore.create` stores: the settings checked against the kind's schema. */
  stored(settings: Settings): Record<string, unknown> {
    return this.parse(settings, 'stored') as Record<string, unknown>;
  }

  /** The settings of a job of this kind, read back. */
  of(job: Pick<Job, 'id' | 'settings'>): Settings {
    return this.parse(job.settings, `read (job ${job.id})`);
  }

  private parse(settings: unknown, when: string): Settings {
    const parsed = this.schema.safeParse(settings);
    if (!parsed.success) throw new Error(`${this.kind} job settings ${when} do not fit their schema: ${parsed.error.message}`);
    return parsed.data;
  }
}
