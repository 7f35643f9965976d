package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Retries through the fault proxy in front of the real service. */
@ExtendWith(RealService.class)
class RetryTest {
  static final ValidateRequest ONE_CREDIT =
      ValidateRequest.builder().address("1600 Amphitheatre Pkwy, Mountain View, CA 94043").build();

  static TestService service;
  static ContactValidator client;

  @BeforeAll
  static void start(TestService s) {
    service = s;
    client = s.client().build();
  }

  @Test
  void whenTheServiceAnswers503Once_thenTheCallWaitsRetryAfterAndSucceeds() throws Exception {
    int faultedBefore = service.counts().get("faulted").getAsInt();
    service.fault("503", 1);
    long start = System.nanoTime();

    ValidationResult r = client.validate(ONE_CREDIT);

    long ms = (System.nanoTime() - start) / 1_000_000;
    assertEquals(AddressStatus.PLAUSIBLE, r.address().status());
    assertTrue(ms >= 900, "Retry-After: 1 was honoured, waited " + ms + " ms");
    assertEquals(faultedBefore + 1, service.counts().get("faulted").getAsInt());
  }

  @Test
  void whenTheAnswerIsLostAfterTheServiceCharged_thenTheRetryIsReplayedAndChargedOnce() throws Exception {
    long before = client.account().balance();
    int forwardedBefore = service.counts().get("forwarded").getAsInt();
    service.fault("drop_after", 1);

    ValidationResult r = client.validate(ONE_CREDIT);

    assertEquals(forwardedBefore + 2, service.counts().get("forwarded").getAsInt(), "the service saw the call twice");
    assertEquals(1, r.credits().charged());
    long after = client.account().balance();
    assertEquals(before - 1, after, "exactly one charge for a call sent twice");
    assertEquals(0, service.counts().get("pending").getAsInt());
  }

  @Test
  void whenTheConnectionDropsBeforeAGet_thenItIsRetried() throws Exception {
    service.fault("drop_before", 1);

    assertEquals(service.accountId, client.account().accountId());
    assertEquals(0, service.counts().get("pending").getAsInt());
  }

  @Test
  void whenRetriesAreOff_then503IsThrownWithRetryAfter() throws Exception {
    ContactValidator noRetries = service.client().maxRetries(0).build();
    service.fault("503", 1);

    ServiceUnavailableException e = assertThrows(ServiceUnavailableException.class, () -> noRetries.validate(ONE_CREDIT));

    assertEquals(Duration.ofSeconds(1), e.retryAfter());
    assertEquals("req_fault_proxy", e.requestId());
  }

  @Test
  void whenRateLimitedLongerThanTheRetriesAllow_then429IsThrown() throws Exception {
    service.fault("429", 3);

    RateLimitException e = assertThrows(RateLimitException.class, () -> client.account());

    assertEquals(429, e.statusCode());
    assertEquals(0, service.counts().get("pending").getAsInt(), "one attempt and two retries");
  }

  @Test
  void whenRetryAfterWouldOutlastTheTimeout_thenTheErrorComesAtOnce() throws Exception {
    ContactValidator shortTimeout = service.client().timeout(Duration.ofMillis(900)).build();
    service.fault("503", 1);
    long start = System.nanoTime();

    assertThrows(ServiceUnavailableException.class, () -> shortTimeout.validate(ONE_CREDIT));

    long ms = (System.nanoTime() - start) / 1_000_000;
    assertTrue(ms < 900, "gave up within the timeout instead of waiting Retry-After (1 s): " + ms + " ms");
  }
}
