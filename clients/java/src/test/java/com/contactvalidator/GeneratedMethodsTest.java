package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Methods generated from the OpenAPI description for operations no one wrote by hand, against the real service. */
@ExtendWith(RealService.class)
class GeneratedMethodsTest {
  static ContactValidator client;

  @BeforeAll
  static void start(TestService s) {
    client = s.client().build();
  }

  @Test
  void whenTheUsageIsAskedFor_thenEveryDayComesAndTodayCountsTheCallsJustMade() {
    client.validate(ValidateRequest.builder().phone("+14155550123").build());
    String today = LocalDate.now(ZoneOffset.UTC).toString();

    JsonArray days = client.getUsage();

    assertTrue(days.size() >= 30, days.size() + " days");
    long phone = 0;
    for (JsonElement day : days) {
      if (day.getAsJsonObject().get("date").getAsString().equals(today)) phone = day.getAsJsonObject().get("phone").getAsLong();
    }
    assertTrue(phone > 0, "today's phone usage: " + phone);
    assertEquals(1, client.getUsage(today, today).size());
  }

  @Test
  void whenAnEmailCheckThatDoesNotExistIsRead_thenNotFound() {
    NotFoundException e = assertThrows(NotFoundException.class, () -> client.emailChecks().get("chk_does_not_exist"));
    assertEquals(404, e.statusCode());
  }

  @Test
  void whenAKeyIsCreatedWithItsBodyAsAMap_thenOnlyThoseMembersAreSent() {
    CreatedKey created = client.keys().create(Map.of("test", true));

    assertTrue(created.apiKey().startsWith("cv_test_"));
    client.keys().revoke(created.keyId());
  }
}
