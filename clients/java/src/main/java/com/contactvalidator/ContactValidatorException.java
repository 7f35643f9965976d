package com.contactvalidator;

import java.util.List;
import java.util.Map;

/**
 * Every error this client raises (unchecked). An answer of the service carries its {@link Problem} document;
 * {@link ApiConnectionException} (no answer at all) carries none. Catch a subclass for one kind of failure:
 * {@link AuthenticationException} 401, {@link InsufficientCreditsException} 402, {@link PermissionException} 403,
 * {@link NotFoundException} 404/410, {@link ConflictException} 409, {@link InvalidRequestException} 400/413/415/422,
 * {@link RateLimitException} 429, {@link ServiceUnavailableException} 503, {@link ApiException} any other status.
 */
public class ContactValidatorException extends RuntimeException {
  private final int statusCode;
  private final Problem problem;

  public ContactValidatorException(String message, int statusCode, Problem problem, Throwable cause) {
    super(message, cause);
    this.statusCode = statusCode;
    this.problem = problem;
  }

  ContactValidatorException(Problem problem) {
    this(describe(problem), problem.status(), problem, null);
  }

  /** The HTTP status, or 0 when no answer came. */
  public int statusCode() {
    return statusCode;
  }

  /** The problem document, or {@code null} when no answer came. */
  public Problem problem() {
    return problem;
  }

  public String type() {
    return problem == null ? null : problem.type();
  }

  public String title() {
    return problem == null ? null : problem.title();
  }

  public String detail() {
    return problem == null ? null : problem.detail();
  }

  /** The service's request id: quote it when you report a problem. */
  public String requestId() {
    return problem == null ? null : problem.requestId();
  }

  public List<FieldError> fieldErrors() {
    return problem == null ? List.of() : problem.errors();
  }

  public Map<String, Object> extensions() {
    return problem == null ? Map.of() : problem.extensions();
  }

  static String describe(Problem p) {
    StringBuilder s = new StringBuilder().append(p.status()).append(' ');
    s.append(p.code() != null && !"about:blank".equals(p.type()) ? p.code() : p.title());
    if (p.detail() != null) s.append(": ").append(p.detail());
    else if (p.title() != null && !"about:blank".equals(p.type())) s.append(": ").append(p.title());
    if (p.requestId() != null) s.append(" (request ").append(p.requestId()).append(')');
    return s.toString();
  }

  /** The exception for an error answer. */
  static ContactValidatorException of(Problem p, Long retryAfterSeconds) {
    int status = p.status();
    switch (status) {
      case 400: case 413: case 415: case 422: return new InvalidRequestException(p);
      case 401: return new AuthenticationException(p);
      case 402: return new InsufficientCreditsException(p);
      case 403: return new PermissionException(p);
      case 404: case 410: return new NotFoundException(p);
      case 409: return new ConflictException(p);
      case 429: return new RateLimitException(p, retryAfterSeconds);
      case 503: return new ServiceUnavailableException(p, retryAfterSeconds);
      default: return new ApiException(p);
    }
  }
}
