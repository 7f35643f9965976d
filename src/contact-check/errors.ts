/**
 * What the contact check refuses or fails with, in its own words. Callers decide what each means to them: the HTTP
 * layer answers it as a problem from its catalogue (src/http/error-handler.ts), a bulk job pauses on InsufficientCredits
 * and marks the record failed on EngineFailed (src/bulk/record-pipeline.ts).
 */
export abstract class ContactCheckError extends Error {}

/** The account's usable credits do not cover the request; nothing was charged. */
export class InsufficientCredits extends ContactCheckError {
  constructor(readonly balance: number, readonly required: number) {
    super(`This request costs ${required} credits; the account has ${balance} usable.`);
  }
}

/** An engine failed (the service's own fault, not the input's): the request was refunded in full. */
export class EngineFailed extends ContactCheckError {
  constructor() {
    super('A validation engine failed; nothing was charged.');
  }
}
