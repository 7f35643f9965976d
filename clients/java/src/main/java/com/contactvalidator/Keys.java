package com.contactvalidator;

import java.util.List;
import java.util.Map;

/**
 * The account's API keys: {@code client.keys()}. The operations are generated (KeysOperations); here are the
 * shorthands for the three kinds of key.
 */
public final class Keys extends KeysOperations {
  Keys(Transport transport) {
    super(transport);
  }

  /** A secret key ({@code cv_live_…}); the key is in the answer this once. */
  public CreatedKey create() {
    return create(Map.of());
  }

  /** A test key ({@code cv_test_…}): validates with network checks off and is never charged. */
  public CreatedKey createTest() {
    return create(Map.of("test", true));
  }

  /** A publishable key ({@code cv_pub_…}) for web pages on {@code origins}; {@code phone} lets it check phones. */
  public CreatedKey createPublishable(List<String> origins, boolean phone) {
    return create(Map.of("publishable", true, "origins", origins, "phone", phone));
  }
}
