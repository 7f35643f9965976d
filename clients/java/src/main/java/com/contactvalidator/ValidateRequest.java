package com.contactvalidator;

import com.google.gson.JsonObject;

/** The body of {@code POST /v1/validate}: at least one of address, e-mail, phone. */
public final class ValidateRequest {
  private final String address;
  private final String email;
  private final String phone;
  private final String country;
  private final Boolean smtp;

  private ValidateRequest(Builder b) {
    this.address = b.address;
    this.email = b.email;
    this.phone = b.phone;
    this.country = b.country;
    this.smtp = b.smtp;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String address() {
    return address;
  }

  public String email() {
    return email;
  }

  public String phone() {
    return phone;
  }

  public String country() {
    return country;
  }

  public Boolean smtp() {
    return smtp;
  }

  String toJson() {
    JsonObject o = new JsonObject();
    if (address != null) o.addProperty("address", address);
    if (email != null) o.addProperty("email", email);
    if (phone != null) o.addProperty("phone", phone);
    if (country != null) o.addProperty("country", country);
    if (smtp != null) {
      JsonObject options = new JsonObject();
      options.addProperty("smtp", smtp);
      o.add("options", options);
    }
    return Json.GSON.toJson(o);
  }

  public static final class Builder {
    private String address;
    private String email;
    private String phone;
    private String country;
    private Boolean smtp;

    private Builder() {}

    /** One line: {@code 1600 Amphitheatre Pkwy, Mountain View, CA 94043}. */
    public Builder address(String address) {
      this.address = address;
      return this;
    }

    public Builder email(String email) {
      this.email = email;
      return this;
    }

    /** E.164 ({@code +14155550123}) or national with a {@link #country} hint. */
    public Builder phone(String phone) {
      this.phone = phone;
      return this;
    }

    /** ISO 3166-1 alpha-2 hint, e.g. {@code US}. */
    public Builder country(String country) {
      this.country = country;
      return this;
    }

    /** {@code false} skips the mailbox probe ({@code email.smtp} is then {@code skipped}). */
    public Builder smtp(boolean smtp) {
      this.smtp = smtp;
      return this;
    }

    /**
     * The request; the service answers 400 ({@link InvalidRequestException}) when it names none of address, e-mail
     * and phone, so that rule is left to it (one source of truth).
     */
    public ValidateRequest build() {
      return new ValidateRequest(this);
    }
  }
}
