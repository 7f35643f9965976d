/** The words a CSV upload's feedback column may hold (docs/batches.md#feedback), read into the three outcomes. */
import { describe, expect, it } from 'vitest';
import { feedbackOutcomeOf } from '../../src/email-feedback/feedback.js';

describe('reading a feedback cell', () => {
  it.each([
    ['bounced', 'bounced'], ['Hard Bounce', 'bounced'], ['HardBounce', 'bounced'], ['hard_bounce', 'bounced'], ['cleaned', 'bounced'],
    ['Delivered', 'delivered'], ['opened', 'delivered'], ['clicked', 'delivered'],
    ['complained', 'complained'], ['SpamComplaint', 'complained'], ['spamreport', 'complained'], ['Spam', 'complained'],
  ])('When the cell says %j, then the outcome is %s', (cell, outcome) => {
    expect(feedbackOutcomeOf(cell)).toBe(outcome);
  });

  it.each(['soft bounce', 'sent', 'constructor', '__proto__', 'maybe', ''])('When the cell says %j, then it tells no outcome', (cell) => {
    expect(feedbackOutcomeOf(cell)).toBeNull();
  });
});
