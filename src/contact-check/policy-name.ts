/**
 * A policy's name (docs/api.md#policies): a preset's, or an account's own (lower case, digits, `_` and `-`, not a
 * preset's). Alone in its module, without dependencies, so that the checkout widget's bundle can take it too.
 */
export const POLICY_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
