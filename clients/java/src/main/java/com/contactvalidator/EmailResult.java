package com.contactvalidator;

/** The e-mail module'\''s verdict. */
public record EmailResult(
    EmailStatus status,
    EmailRisk risk,
    SmtpVerdict smtp,
    /** Why the status: {@code syntax} (finer codes may follow a colon), {@code no_such_domain}, {@code mailbox_not_found}, ... (an open set, so a string). */
    String reason,
    String normalized,
    /** A likely intended address ({@code gmial.com} -> {@code gmail.com}), or {@code null}. */
    String suggestion,
    boolean disposable,
    boolean role,
    boolean free
) {}
