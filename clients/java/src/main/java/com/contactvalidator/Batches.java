package com.contactvalidator;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * CSV batches (docs/batches.md): {@code client.batches()}. The operations are generated (BatchesOperations); here is
 * what is not one: waiting for a batch to settle.
 */
public final class Batches extends BatchesOperations {
  private static final Set<BatchStatus> SETTLED =
      Set.of(BatchStatus.COMPLETED, BatchStatus.FAILED, BatchStatus.CANCELED, BatchStatus.PAUSED);

  Batches(Transport transport) {
    super(transport);
  }

  /**
   * Polls the batch every {@code pollInterval} until it is completed, failed or canceled, or paused (its credits ran
   * out: it goes on by itself once credits are added, or on {@link #resume}), and returns it in that state. Each poll
   * is one call with the client's timeout; the wait as a whole has none.
   */
  public Batch waitFor(String batchId, BatchProgressListener listener, Duration pollInterval) {
    Objects.requireNonNull(pollInterval, "pollInterval");
    while (true) {
      Batch batch = get(batchId);
      if (listener != null) listener.onProgress(batch);
      if (SETTLED.contains(batch.status())) return batch;
      try {
        Thread.sleep(Math.max(1, pollInterval.toMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ApiConnectionException("interrupted while waiting for batch " + batchId, false, e);
      }
    }
  }

  /** {@link #waitFor(String, BatchProgressListener, Duration)} polling every second, without a listener. */
  public Batch waitFor(String batchId) {
    return waitFor(batchId, null, Duration.ofSeconds(1));
  }
}
