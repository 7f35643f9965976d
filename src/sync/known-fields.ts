/**
 * Which optional fields a platform account has, for plugins (fields a newer version writes, which an account set up
 * before lacks): looked up once a while per account rather than at every session, so that a delivery of one record
 * costs no describe, and written where present, left out where not. A set-up that creates them forgets the account.
 */

/** How long what was found is kept: fields an admin adds by hand are written within it. */
export const KNOWN_FIELDS_TTL_MS = 10 * 60_000;
const MAX_ACCOUNTS = 10_000;

export class KnownFields {
  private readonly known = new Map<string, { names: ReadonlySet<string>; until: number }>();

  constructor(private readonly ttlMs = KNOWN_FIELDS_TTL_MS, private readonly now: () => number = Date.now) {}

  /** The names `look` finds on an account's object, kept for the TTL; a failed look is not kept. */
  async of(account: string, object: string, look: () => Promise<Iterable<string>>): Promise<ReadonlySet<string>> {
    const key = `${account}\n${object}`;
    const hit = this.known.get(key);
    if (hit && hit.until > this.now()) return hit.names;
    const names = new Set(await look());
    if (this.known.size >= MAX_ACCOUNTS) this.known.clear();
    this.known.set(key, { names, until: this.now() + this.ttlMs });
    return names;
  }

  /** Forgets what was found of an account's objects (its fields were just set up). */
  forget(account: string): void {
    for (const key of [...this.known.keys()]) if (key.startsWith(`${account}\n`)) this.known.delete(key);
  }
}
