/**
 * The US or Canadian last line as checked (reconcileUsLastLine, reconcileCanadianLastLine): what the answer and the
 * reference data's search start from. Its own module, for the last line's checks and the ZIP candidates both use it.
 */
export interface LastLine {
  city: string | null;
  state: string | null;
  zip: string | null;
  corrected: boolean;
  invalid: boolean;
  /** ZIPs the reference data may choose between when the input leaves it open (may be shared: never modified). */
  candidateZips: readonly string[];
  /**
   * With candidateZips, the ZIPs the loaded address files place in this city (by city key) of `state`: worked out only
   * if the ZIP given does not hold the delivery point (most answers never need them).
   */
  localCandidatesOf: string | null;
  /**
   * For a misspelt city one slip from several names, the name each candidate ZIP is of (null where two names share
   * it): the ZIP the reference data finds corrects the city.
   */
  nearCityOfZip?: ReadonlyMap<string, string | null>;
  /** The footnote saying what the last line lacks, which a ZIP the reference data finds replaces. */
  missing: string;
  /**
   * The footnote keeping a ZIP of the state whose embedded place is not the city typed, itself a place of other ZIPs
   * (`SHAWNEE MISSION, KS 66202`): reference points of the street decide it, then it goes.
   */
  zipKept?: string;
  /** For a ZIP that is none of a city of several ZIPs, those of its ZIPs one typing slip from it (correctZip). */
  slipZips?: readonly string[];
}
