/**
 * Policies: which answers mean `accept`, `confirm` or `fix` (docs/api.md#policies), as Loqate's Verify presets set
 * thresholds per module. A policy is data: per module, an action for each status, and the finer rules (a part
 * corrected or added, an e-mail reason, a suggestion). `default` is the fixed table every answer followed before
 * policies (./next-action.ts); the named presets tune it for a sign-up form, a checkout and a CRM clean-up; an
 * account defines its own from one of them (src/contact-check/policy-store.ts, /v1/policies).
 */
import { z } from 'zod';
import type { AddressStatus, EmailStatus, PhoneStatus } from '../validation/types.js';

export const NEXT_ACTIONS = ['accept', 'confirm', 'fix'] as const;
export type NextAction = (typeof NEXT_ACTIONS)[number];

export interface AddressRules {
  statuses: Record<AddressStatus, NextAction>;
  /** A part corrected or added from the rest (an `A#` ZIP code, `B#` city/state/country or `M#` street footnote). */
  corrections: NextAction;
  /** The building has units and none was given (`missing_unit`, USPS DPV `D`). */
  missing_unit: NextAction;
}

export interface EmailRules {
  statuses: Record<EmailStatus, NextAction>;
  /** By `reason` (`role`, or with its finer code `syntax:local_too_long`, else the part before the colon): wins over the status. */
  reasons: Record<string, NextAction>;
  /** Any `suggestion` (`ann@gmial.com` → `ann@gmail.com`). */
  suggestion: NextAction;
}

export interface PhoneRules {
  statuses: Record<PhoneStatus, NextAction>;
  /** By `reason` (`emergency_number`, `short_code`, `timeout`, …): wins over the status. */
  reasons: Record<string, NextAction>;
}

export interface PolicyRules {
  address: AddressRules;
  email: EmailRules;
  phone: PhoneRules;
}

/** The answers' fixed table: what every answer without a policy follows (docs/api.md#next_action). */
const DEFAULT: PolicyRules = {
  // `plausible` is as far as the data reaches: nothing to ask unless something was changed or added.
  address: {
    statuses: { verified: 'accept', plausible: 'accept', corrected: 'confirm', partial: 'confirm', ambiguous: 'confirm', invalid: 'fix' },
    corrections: 'confirm',
    missing_unit: 'confirm',
  },
  // `risky` (a typo, disposable, role, catch-all, full mailbox) and `unknown` (not checked, no answer) are the person's call.
  email: { statuses: { valid: 'accept', risky: 'confirm', unknown: 'confirm', invalid: 'fix' }, reasons: {}, suggestion: 'confirm' },
  phone: { statuses: { valid: 'accept', unknown: 'confirm', invalid: 'fix' }, reasons: {} },
};

/**
 * The named presets (docs/api.md#policies says each in words). `signup`: keep the form short, refuse throw-away
 * mailboxes; `checkout`: the address is what ships, so ask about every change or missing unit, and never hold an order
 * over an e-mail that could not be checked; `crm_cleanup`: no person to ask, so take the standardized form, keep role
 * mailboxes, and mark throw-away ones to fix.
 */
export const PRESETS = {
  default: DEFAULT,
  signup: {
    address: { statuses: { ...DEFAULT.address.statuses, partial: 'accept' }, corrections: 'confirm', missing_unit: 'accept' },
    email: {
      statuses: { ...DEFAULT.email.statuses, unknown: 'accept' },
      reasons: { disposable: 'fix', role: 'accept', catch_all: 'accept' }, suggestion: 'confirm',
    },
    phone: { statuses: { ...DEFAULT.phone.statuses, unknown: 'accept' }, reasons: {} },
  },
  checkout: {
    address: DEFAULT.address,
    email: { statuses: { ...DEFAULT.email.statuses, risky: 'accept', unknown: 'accept' }, reasons: { disposable: 'confirm' }, suggestion: 'confirm' },
    phone: { statuses: { ...DEFAULT.phone.statuses, unknown: 'accept' }, reasons: {} },
  },
  crm_cleanup: {
    address: { statuses: { ...DEFAULT.address.statuses, corrected: 'accept' }, corrections: 'accept', missing_unit: 'confirm' },
    email: { statuses: DEFAULT.email.statuses, reasons: { role: 'accept', disposable: 'fix' }, suggestion: 'confirm' },
    phone: DEFAULT.phone,
  },
} as const satisfies Record<string, PolicyRules>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as [PresetName, ...PresetName[]];
export const DEFAULT_POLICY: PolicyRules = DEFAULT;

export const isPresetName = (name: string): name is PresetName => Object.hasOwn(PRESETS, name);

export { POLICY_NAME } from './policy-name.js';

const action = z.enum(NEXT_ACTIONS);
const reasons = z.record(z.string().regex(/^[a-z_]+(:[a-z_]+)?$/, 'a reason code such as `role` or `syntax:missing_at`').max(60), action);
const statuses = <S extends string>(values: readonly S[]) =>
  z.object(Object.fromEntries(values.map((v) => [v, action.optional()])) as Record<S, z.ZodOptional<typeof action>>).strict();

const ADDRESS_STATUS_KEYS = Object.keys(DEFAULT.address.statuses) as AddressStatus[];
const EMAIL_STATUS_KEYS = Object.keys(DEFAULT.email.statuses) as EmailStatus[];
const PHONE_STATUS_KEYS = Object.keys(DEFAULT.phone.statuses) as PhoneStatus[];

/** Rules as a caller writes them: any part left out comes from the policy's base. */
export const policyRulesInputSchema = z.object({
  address: z.object({
    statuses: statuses(ADDRESS_STATUS_KEYS).optional(), corrections: action.optional(), missing_unit: action.optional(),
  }).strict().optional(),
  email: z.object({ statuses: statuses(EMAIL_STATUS_KEYS).optional(), reasons: reasons.optional(), suggestion: action.optional() }).strict().optional(),
  phone: z.object({ statuses: statuses(PHONE_STATUS_KEYS).optional(), reasons: reasons.optional() }).strict().optional(),
}).strict();

export type PolicyRulesInput = z.output<typeof policyRulesInputSchema>;

const defined = <T extends object>(o: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;

/** `base` with `changes` laid over it, module by module and rule by rule. */
export function rulesWith(base: PolicyRules, changes: PolicyRulesInput): PolicyRules {
  const { address: a, email: e, phone: p } = changes;
  return {
    address: {
      statuses: { ...base.address.statuses, ...defined(a?.statuses) },
      corrections: a?.corrections ?? base.address.corrections,
      // A policy kept before `missing_unit` existed reads it as the fixed table does.
      missing_unit: a?.missing_unit ?? base.address.missing_unit ?? DEFAULT.address.missing_unit,
    },
    email: {
      statuses: { ...base.email.statuses, ...defined(e?.statuses) },
      reasons: { ...base.email.reasons, ...e?.reasons },
      suggestion: e?.suggestion ?? base.email.suggestion,
    },
    phone: {
      statuses: { ...base.phone.statuses, ...defined(p?.statuses) },
      reasons: { ...base.phone.reasons, ...p?.reasons },
    },
  };
}

/** A reason's rule: the exact code first (`syntax:missing_at`), then its family (`syntax`). */
export function byReason(rules: Record<string, NextAction>, reason: string | null | undefined): NextAction | undefined {
  if (!reason) return undefined;
  return Object.hasOwn(rules, reason) ? rules[reason] : (Object.hasOwn(rules, reason.split(':')[0]) ? rules[reason.split(':')[0]] : undefined);
}
