/** The next_action rule (docs/api.md#next_action), one line per case of each module, and the whole answer's. */
import { describe, expect, it } from 'vitest';
import {
  addressNextAction, emailNextAction, overallNextAction, phoneNextAction, type NextAction,
} from '../../src/contact-check/next-action.js';
import type { AddressStatus, EmailStatus, PhoneStatus } from '../../src/validation/types.js';

describe('next_action of an address', () => {
  const cases: [AddressStatus, string[], NextAction][] = [
    ['verified', ['DPV: delivery point confirmed', 'N#: abbreviations and spelling standardized'], 'accept'],
    ['plausible', ['DPV: no reference data covers this postal code; well-formed only'], 'accept'],
    ['plausible', ['V#: city X is not in the embedded ZIP code data'], 'accept'],
    ['plausible', ['A#: ZIP code 40219 added'], 'confirm'],
    ['plausible', ['B#: country GERMANY told from the street word FRIEDRICHSTRASSE'], 'confirm'],
    ['corrected', ['B#: city corrected from LOUISVILE to LOUISVILLE'], 'confirm'],
    // A street mended with no reference data to confirm it is plausible (issue #52 item 4), and still the person's call.
    ['plausible', ['M#: street corrected from PENSYLVANIA AVE to PENNSYLVANIA AVE'], 'confirm'],
    ['partial', ['DPV: the building is confirmed, the unit is missing'], 'confirm'],
    ['ambiguous', [], 'confirm'],
    ['invalid', ['C#: ZIP code 00000 does not exist'], 'fix'],
    ['invalid', ['A#: ZIP code 40219 added'], 'fix'],
  ];
  it.each(cases)('When the address is %s with footnotes %j, then %s', (status, footnotes, expected) => {
    expect(addressNextAction({ status, footnotes })).toBe(expected);
  });
});

describe('next_action of an e-mail', () => {
  const cases: [EmailStatus, string | null, NextAction][] = [
    ['valid', null, 'accept'],
    ['valid', 'ann@gmail.com', 'confirm'],
    ['risky', null, 'confirm'],
    ['risky', 'ann@gmail.com', 'confirm'],
    ['unknown', null, 'confirm'],
    ['invalid', null, 'fix'],
    ['invalid', 'jane.doe@gmail.com', 'fix'],
  ];
  it.each(cases)('When the e-mail is %s with suggestion %s, then %s', (status, suggestion, expected) => {
    expect(emailNextAction({ status, suggestion })).toBe(expected);
  });
});

describe('next_action of a phone, and of the whole answer', () => {
  it.each([['valid', 'accept'], ['unknown', 'confirm'], ['invalid', 'fix']] as [PhoneStatus, NextAction][])(
    'When the phone is %s, then %s', (status, expected) => {
      expect(phoneNextAction({ status })).toBe(expected);
    },
  );

  it.each([
    [['accept', null, null], 'accept'],
    [['accept', 'confirm', 'accept'], 'confirm'],
    [['confirm', 'fix', 'accept'], 'fix'],
    [[null, null, 'fix'], 'fix'],
    [['accept', 'accept', 'accept'], 'accept'],
  ] as [(NextAction | null)[], NextAction][])('When the modules say %j, then the answer says %s', (actions, expected) => {
    expect(overallNextAction(actions)).toBe(expected);
  });
});
