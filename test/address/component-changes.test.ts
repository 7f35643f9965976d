/**
 * What the answer changed, part by part (issue #55 item 3, docs/api.md#what-changed): each part's change from what the
 * engine said, the missing-unit signal that makes `next_action` `confirm` with its reason, and the match score.
 */
import { describe, expect, it } from 'vitest';
import { addressVerdict } from '../../src/contact-check/next-action.js';
import { PRESETS } from '../../src/contact-check/policies.js';
import { check } from './shipped-engine.js';

const changeOf = (input: string, name: string) => check(input).changes!.find((c) => c.name === name);

describe('address component changes', () => {
  it('When a delivery point is typed as it is, then every part is `none` with its text as written, and the score is high', () => {
    const r = check('6007 Applegate Ln, Louisville, KY 40219');

    expect(r.changes).toEqual([
      { name: 'primary_number', value: '6007', input: '6007', change: 'none' },
      { name: 'street', value: 'APPLEGATE LN', input: 'Applegate Ln', change: 'none' },
      { name: 'city', value: 'LOUISVILLE', input: 'Louisville', change: 'none' },
      { name: 'state', value: 'KY', input: 'KY', change: 'none' },
      { name: 'postal_code', value: '40219', input: '40219', change: 'none' },
      { name: 'country', value: 'US', input: null, change: 'inferred' },
    ]);
    expect([r.missing_unit, r.match_score]).toEqual([false, 0.9]);
  });

  it('When the city is misspelt and the state and ZIP code left out, then the city is spell-corrected and the others inferred', () => {
    const r = check('6007 Applegate Lane, Louisvile');

    expect(r.status).toBe('corrected');
    expect(changeOf('6007 Applegate Lane, Louisvile', 'city')).toEqual({ name: 'city', value: 'LOUISVILLE', input: 'LOUISVILE', change: 'spell_corrected' });
    expect(r.changes!.filter((c) => c.change === 'inferred').map((c) => c.name)).toEqual(['state', 'postal_code', 'country']);
    expect(r.match_score).toBeLessThan(check('6007 Applegate Ln, Louisville, KY 40219').match_score!);
  });

  it('When a ZIP code of another place or another city is typed, then it is replaced, not spell-corrected; a swapped pair of letters is a slip', () => {
    expect(changeOf('1 Blue Jay Terrace, Wareham, MA 02517', 'postal_code')).toMatchObject({ input: '02517', value: '02571', change: 'replaced' });
    expect(changeOf('1 Blue Jay Terrace, Yarmouth, MA 02571', 'city')).toMatchObject({ input: 'YARMOUTH', value: 'WAREHAM', change: 'replaced' });
    expect(changeOf('1 Blue Jay Terrace, Warheam', 'city')).toMatchObject({ input: 'WARHEAM', value: 'WAREHAM', change: 'spell_corrected' });
    expect(changeOf('1 Dunmsuir Lane, Savannah, GA', 'street')).toMatchObject({ input: 'DUNMSUIR LN', value: 'DUNSMUIR LN', change: 'spell_corrected' });
    expect(changeOf('1 Blue Jay Street, Wareham, MA 02571', 'street')).toMatchObject({ value: 'BLUE JAY TER', change: 'replaced' });
  });

  it('When no reference data confirms the street, then its number and street are unconfirmed', () => {
    const r = check('1600 amphitheatre PARKWAY mountain view ca 94043');

    expect(r.changes!.filter((c) => c.change === 'unconfirmed').map((c) => c.name)).toEqual(['primary_number', 'street']);
    expect(r.match_score).toBeLessThanOrEqual(0.4);
  });

  it('When a building with units is given without one, then missing_unit is set and next_action is confirm for it, whatever the policy lets pass of `partial`', () => {
    const r = check('457 Mountain Village Boulevard, Mountain Village, CO 81435');

    expect([r.status, r.dpv, r.missing_unit]).toEqual(['partial', 'D', true]);
    expect(addressVerdict(r)).toEqual({ action: 'confirm', reason: 'missing_unit' });
    const partialPasses = { ...PRESETS.default.address, statuses: { ...PRESETS.default.address.statuses, partial: 'accept' as const } };
    expect(addressVerdict(r, partialPasses)).toEqual({ action: 'confirm', reason: 'missing_unit' });
    expect(addressVerdict(r, PRESETS.signup.address)).toEqual({ action: 'accept', reason: null });
    expect(addressVerdict(check('6007 Applegate Ln, Louisville, KY 40219'))).toEqual({ action: 'accept', reason: null });
  });

  it('When the address is invalid, then its score is 0', () => {
    expect(check('1 Nowhere Blvd, Springfield, ZZ 00000').match_score).toBe(0);
  });
});
