// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.util.List;
import java.util.Map;

/** The schema {@code AddressResult}. */
public record AddressResult(
    /** {@code verified} delivery point confirmed; {@code corrected} confirmed by reference data after changing input components; {@code partial} building confirmed, unit missing or unknown; {@code plausible} well-formed and consistent but not confirmed (corrections made without reference data say so in {@code A#}/{@code B#}/{@code M#} footnotes); {@code ambiguous} several candidates; {@code invalid} */
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
    NextAction nextAction,
    /** What confirmed the address (docs/api.md#address-evidence): {@code delivery_point} (USPS data holds it), {@code address_point} (an address file: NAD, OpenAddresses, NAR, RRAD), {@code street_range} (a TIGER number range of the street: not a house), {@code street} (the street is known in the postal code, the number not), {@code postal_code} (postal code, city and state agree), {@code none} */
    AddressEvidence evidence,
    /** Ids of the data behind {@code evidence}: {@code usps}, {@code nad}, {@code openaddresses}, {@code nar}, {@code rrad}, {@code tiger}, {@code geonames} */
    List<String> sources,
    /** Where it is, and how closely; null when not known (or the address is invalid) */
    AddressLocation location,
    /** What changed, part by part (docs/api.md#what-changed): each part the answer has, as written and as answered */
    List<Map<String, Object>> changes,
    /** The building has units and none was given (USPS DPV {@code D}): ask for the unit ({@code next_action} {@code confirm}, {@code next_action_reason} {@code missing_unit}) */
    boolean missingUnit,
    /** 0 to 1: how far the evidence reaches ({@code delivery_point} 1 … {@code none} 0.2), less 0.05 a part inferred or spell-corrected, 0.1 a part replaced or a missing unit; 0 when {@code invalid} */
    double matchScore,
    /** Which rule made {@code next_action} more than {@code accept}: {@code missing_unit}, {@code corrections} (a part corrected or added), or {@code status:&lt;status&gt;}; null for {@code accept} */
    String nextActionReason
) {}
