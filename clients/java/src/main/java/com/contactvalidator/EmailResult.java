// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.Map;

/** The schema {@code EmailResult}. */
public record EmailResult(
    EmailStatus status,
    EmailRisk risk,
    /** {@code pending}: the probe goes on past the budget; {@code skipped}: no probe was made */
    SmtpVerdict smtp,
    /** Why the status: {@code syntax} (finer codes after a colon, {@code syntax:local_too_long}), {@code no_such_domain}, {@code no_mail_server}, {@code null_mx}, {@code mailbox_not_found}, {@code disabled}, {@code catch_all}, {@code mailbox_full}, {@code disposable}, {@code role}, {@code temp_fail}, {@code timeout}, {@code blocked}, {@code no_connect}, {@code dns_error}, {@code accepted}, {@code typo}, {@code not_checked}, {@code reserved_domain} (example.com, {@code .test}, {@code .example}, {@code .invalid}, {@code .localhost}: never a mailbox), {@code bounced} (the account reported a hard bounce, {@code POST /v1/feedback}), … */
    String reason,
    String normalized,
    /** A likely intended address when the domain looks mistyped */
    String suggestion,
    boolean disposable,
    boolean role,
    boolean free,
    /** What to do with the answer (docs/api.md#next_action): {@code accept} it as it is; {@code confirm} it with the person (a correction, a suggestion, a guess or something not checked: {@code unknown}, {@code catch_all}, {@code partial}, …); {@code fix}: something is {@code invalid} */
    NextAction nextAction,
    /** On a {@code temp_fail}, {@code throttled} or {@code timeout} answer: the service asks again later; {@code GET /v1/email-checks/{check_id}} gives the answer that arrives, as do the cache, an {@code email.verified} event and a batch's result row (docs/email.md) */
    String checkId,
    /** On a catch-all answer, once the account has told outcomes of its mail ({@code POST /v1/feedback}): how likely a mail to the domain is delivered (docs/email.md#feedback) */
    Map<String, Object> catchAllScore
) {}
