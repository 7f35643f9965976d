package com.contactvalidator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the service reads an uploaded CSV file. Naming any column turns detection off; with none named, the columns are
 * found from the header (address / street / city / state / zip / email / phone / ..., any case).
 */
public final class BatchParams {
  private final Map<String, String> query;
  private final String contentType;

  private BatchParams(Map<String, String> query, String contentType) {
    this.query = query;
    this.contentType = contentType;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Detect every column, probe mailboxes, no name. */
  public static BatchParams defaults() {
    return new Builder().build();
  }

  String contentType() {
    return contentType;
  }

  String queryString() {
    return Paths.query(query);
  }

  public static final class Builder {
    private final Map<String, String> query = new LinkedHashMap<>();
    private String contentType = "text/csv";

    private Builder() {}

    /** A label kept with the batch. */
    public Builder name(String name) {
      query.put("name", name);
      return this;
    }

    /** {@code false} skips the mailbox probe for the whole file. */
    public Builder smtp(boolean smtp) {
      query.put("smtp", Boolean.toString(smtp));
      return this;
    }

    /** Header names joined with ", " into the one-line address, in this order ({@code Street, City, State, Zip}). */
    public Builder addressColumns(List<String> headers) {
      query.put("address_columns", String.join(",", headers));
      return this;
    }

    public Builder emailColumn(String header) {
      query.put("email_column", header);
      return this;
    }

    public Builder phoneColumn(String header) {
      query.put("phone_column", header);
      return this;
    }

    public Builder countryColumn(String header) {
      query.put("country_column", header);
      return this;
    }

    /**
     * The column telling what became of mail sent to each row's address ({@code bounced}, {@code delivered},
     * {@code complained}), recorded as the account's feedback before the row is checked; naming it leaves the other
     * columns detected.
     */
    public Builder feedbackColumn(String header) {
      query.put("feedback_column", header);
      return this;
    }

    /**
     * The upload's media type: {@code text/csv} (the default); the service also takes {@code application/csv},
     * {@code text/plain} and {@code application/vnd.ms-excel}, and answers 415 to anything else.
     */
    public Builder contentType(String contentType) {
      this.contentType = contentType;
      return this;
    }

    public BatchParams build() {
      return new BatchParams(new LinkedHashMap<>(query), contentType);
    }
  }
}
