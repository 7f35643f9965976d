// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;

/** The schema {@code AddressResult}. */
public record AddressResult(
    /** {@code verified} delivery point confirmed; {@code corrected} confirmed after changing input components; {@code partial} building confirmed, unit missing or unknown; {@code plausible} well-formed and consistent, no reference data covers it; {@code ambiguous} several candidates; {@code invalid} */
    AddressStatus status,
    /** Upper case, one line, postal code included */
    String standardized,
    /** USPS DPV code, or "" when no reference data covers the address */
    Dpv dpv,
    /** {@code 12345-6789} when the reference data gives the add-on */
    String zip4,
    /** ISO 3166-1 alpha-2 */
    String country,
    AddressComponents components,
    /** Stable-prefix codes ({@code A#} ZIP, {@code B#} city/state, {@code N#} standardized, …) */
    List<String> footnotes,
    /** What to do with the answer (docs/api.md#next_action): {@code accept} it as it is; {@code confirm} it with the person (a correction, a suggestion, a guess or something not checked: {@code unknown}, {@code catch_all}, {@code partial}, …); {@code fix}: something is {@code invalid} */
    NextAction nextAction
) {}
