package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(RealService.class)
class ValidateAndAccountTest {
  static TestService service;
  static ContactValidator client;

  @BeforeAll
  static void start(TestService s) {
    service = s;
    client = s.client().userAgent("cv-java-tests/1").build();
  }

  @Test
  void whenAllThreeModulesAreAsked_thenEachAnswersWithTypedVocabularies() {
    ValidationResult r = client.validate(ValidateRequest.builder()
        .address("1600 Amphitheatre Pkwy, Mountain View, CA 94043")
        .email("someone@example.com")
        .phone("+14155550123")
        .country("US")
        .smtp(false)
        .build());

    assertEquals(AddressStatus.PLAUSIBLE, r.address().status());
    assertEquals("1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043", r.address().standardized());
    assertEquals(Dpv.NONE, r.address().dpv());
    assertEquals("MOUNTAIN VIEW", r.address().components().city());
    assertEquals("94043", r.address().components().postalCode());
    assertEquals(SmtpVerdict.SKIPPED, r.email().smtp());
    assertNotNull(r.email().status());
    assertNotNull(r.email().risk());
    assertEquals("someone@example.com", r.email().normalized());
    assertEquals(PhoneStatus.VALID, r.phone().status());
    assertEquals(PhoneType.FIXED_OR_MOBILE, r.phone().type());
    assertEquals(CarrierSource.NONE, r.phone().carrierSource());
    assertEquals("+14155550123", r.phone().e164());
    assertTrue(r.credits().charged() > 0);
    assertTrue(r.requestId().startsWith("req_"));
  }

  @Test
  void whenOnlyAnEmailIsAsked_thenTheOtherModulesAreNull() {
    ValidationResult r = client.validate(ValidateRequest.builder().email("not an address").build());

    assertNull(r.address());
    assertNull(r.phone());
    assertEquals(EmailStatus.INVALID, r.email().status());
    assertTrue(r.email().reason().startsWith("syntax"));
  }

  @Test
  void whenTheAccountIsRead_thenBalanceGrantsUsageAndKeysComeBack() {
    Account a = client.account();

    assertEquals(service.accountId, a.accountId());
    assertTrue(a.balance() > 0);
    assertFalse(a.grants().isEmpty());
    assertNotNull(a.grants().get(0).expiresAt());
    assertEquals(30, a.usage().windowDays());
    assertFalse(a.keys().isEmpty());
  }

  @Test
  void whenAKeyIsCreatedAndRevoked_thenItWorksUntilRevokedAndIsRefusedAfter() {
    CreatedKey created = client.keys().create();
    assertTrue(created.apiKey().startsWith("cv_live_"));
    assertTrue(client.keys().list().stream().anyMatch(k -> k.keyId().equals(created.keyId())));
    ContactValidator second = service.client().apiKey(created.apiKey()).build();
    assertEquals(service.accountId, second.account().accountId());

    RevokedKey revoked = client.keys().revoke(created.keyId());

    assertEquals(created.keyId(), revoked.keyId());
    assertNotNull(revoked.revokedAt());
    ApiKey listed = client.keys().list().stream().filter(k -> k.keyId().equals(created.keyId())).findFirst().orElseThrow();
    assertNotNull(listed.revokedAt());
    assertThrows(AuthenticationException.class, second::account);
  }

  @Test
  void whenATestKeyValidatesFixedInputs_thenNextActionSaysWhatToDoAndNothingIsCharged() {
    CreatedKey created = client.keys().createTest();
    ContactValidator tester = service.client().apiKey(created.apiKey()).build();
    long before = client.account().balance();

    ValidationResult good = tester.validate(ValidateRequest.builder()
        .address("6007 Applegate Ln, Louisville, KY 40219").phone("+1 502-713-4410").build());
    ValidationResult typo = tester.validate(ValidateRequest.builder().email("ann@gmial.com").build());
    ValidationResult bad = tester.validate(ValidateRequest.builder().email("jane.doe@gmail.con").build());

    assertTrue(created.apiKey().startsWith("cv_test_"));
    assertEquals(Boolean.TRUE, created.test());
    assertEquals(NextAction.ACCEPT, good.nextAction());
    assertEquals(NextAction.ACCEPT, good.address().nextAction());
    assertTrue(good.test());
    assertEquals(0, good.credits().charged());
    assertEquals(NextAction.CONFIRM, typo.nextAction());
    assertEquals("ann@gmail.com", typo.email().suggestion());
    assertEquals(NextAction.FIX, bad.nextAction());
    assertEquals(NextAction.FIX, bad.email().nextAction());
    assertEquals(before, client.account().balance());
    assertThrows(AuthenticationException.class, tester::account);
  }

  @Test
  void whenAPublishableKeyIsCreated_thenItIsListedWithItsOrigins() {
    CreatedKey created = client.keys().createPublishable(List.of("https://shop.example.com"), false);

    assertTrue(created.apiKey().startsWith("cv_pub_"));
    ApiKey listed = client.keys().list().stream().filter(k -> k.keyId().equals(created.keyId())).findFirst().orElseThrow();
    assertEquals(List.of("https://shop.example.com"), listed.publishable().origins());
    client.keys().revoke(created.keyId());
  }

  @Test
  void whenTheStartOfADeliveryLineIsTyped_thenTheDeliveryPointComesFirstAndNothingIsCharged() {
    long before = client.account().balance();

    List<AddressSuggestion> suggestions = client.autocompleteAddress("6007 Applegate La");
    List<AddressSuggestion> places = client.autocompleteAddress("Louisville, KY 4021", "US", 2);

    assertEquals(new AddressSuggestion("6007 APPLEGATE LN, LOUISVILLE, KY 40219", "6007 APPLEGATE LN", "LOUISVILLE", "KY", "40219",
        "US", "address"), suggestions.get(0));
    assertEquals(List.of("40210", "40211"), places.stream().map(AddressSuggestion::zip).toList());
    assertEquals(before, client.account().balance());
  }

  @Test
  void whenTheAutocompleteLimitIsOutOfRange_thenInvalidRequestNamesTheField() {
    InvalidRequestException e = assertThrows(InvalidRequestException.class, () -> client.autocompleteAddress("main", null, 50));
    assertEquals(List.of("limit"), e.fieldErrors().stream().map(FieldError::field).toList());
  }
}
