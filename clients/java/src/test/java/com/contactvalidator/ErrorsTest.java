package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Each error the real service answers becomes its exception, with the problem document. */
@ExtendWith(RealService.class)
class ErrorsTest {
  static TestService service;
  static ContactValidator client;

  @BeforeAll
  static void start(TestService s) {
    service = s;
    client = s.client().build();
  }

  @Test
  void whenTheKeyIsWrong_then401AuthenticationException() {
    ContactValidator bad = service.client().apiKey("cv_live_notARealKeyAtAll0000000000000000000").build();

    AuthenticationException e = assertThrows(AuthenticationException.class,
        () -> bad.validate(ValidateRequest.builder().email("a@example.com").build()));

    assertEquals(401, e.statusCode());
    assertEquals("/problems/unauthorized", e.type());
    assertNotNull(e.requestId());
  }

  @Test
  void whenTheBodyNamesNoModule_then400WithFieldErrors() {
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> client.validate(ValidateRequest.builder().country("US").build()));

    assertEquals(400, e.statusCode());
    assertEquals("invalid-request", e.problem().code());
    assertFalse(e.fieldErrors().isEmpty());
    assertTrue(e.getMessage().contains("400 invalid-request"), e.getMessage());
  }

  @Test
  void whenTheBatchIsUnknown_then404NotFound() {
    NotFoundException e = assertThrows(NotFoundException.class, () -> client.batches().get("batch_doesNotExist"));

    assertEquals(404, e.statusCode());
    assertEquals("/problems/not-found", e.type());
  }

  @Test
  void whenACompletedBatchIsResumed_then409Conflict() {
    Batch batch = client.batches().create(BatchesTest.CSV.getBytes(StandardCharsets.UTF_8),
        BatchParams.builder().smtp(false).build());
    client.batches().waitFor(batch.batchId(), null, java.time.Duration.ofMillis(100));

    ConflictException e = assertThrows(ConflictException.class, () -> client.batches().resume(batch.batchId()));

    assertEquals(409, e.statusCode());
    assertEquals("batch-not-paused", e.problem().code());
  }

  @Test
  void whenTheCsvBreaksTheGrammar_then422WithTheLine() {
    byte[] broken = "Email,Phone\n\"a@example.com,+14155550123\n".getBytes(StandardCharsets.UTF_8);

    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> client.batches().create(broken, BatchParams.defaults()));

    assertEquals(422, e.statusCode());
    assertEquals("invalid-csv", e.problem().code());
    assertEquals(2, e.line());
  }

  @Test
  void whenTheUploadIsNotCsv_then415() {
    InvalidRequestException e = assertThrows(InvalidRequestException.class,
        () -> client.batches().create("<a/>".getBytes(StandardCharsets.UTF_8),
            BatchParams.builder().contentType("application/xml").build()));

    assertEquals(415, e.statusCode());
    assertEquals("unsupported-media-type", e.problem().code());
  }
}
