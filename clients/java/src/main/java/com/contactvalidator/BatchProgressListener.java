package com.contactvalidator;

/** Told the batch's state at every poll of {@link Batches#waitFor}. */
@FunctionalInterface
public interface BatchProgressListener {
  void onProgress(Batch batch);
}
