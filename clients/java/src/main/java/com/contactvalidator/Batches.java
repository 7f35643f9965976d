package com.contactvalidator;

import java.io.FileNotFoundException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** CSV batches (docs/batches.md): {@code client.batches()}. */
public final class Batches {
  private static final Set<BatchStatus> SETTLED =
      Set.of(BatchStatus.COMPLETED, BatchStatus.FAILED, BatchStatus.CANCELED, BatchStatus.PAUSED);

  private final Transport transport;

  Batches(Transport transport) {
    this.transport = transport;
  }

  /** Uploads a CSV file (streamed from disk, never read whole into memory). Retried on 429/503. */
  public Batch create(Path file, BatchParams params) {
    Objects.requireNonNull(file, "file");
    if (!Files.isReadable(file)) throw new UncheckedIOException(new FileNotFoundException(file.toString()));
    return upload(() -> {
      try {
        return HttpRequest.BodyPublishers.ofFile(file);
      } catch (FileNotFoundException e) {
        throw new UncheckedIOException(e);
      }
    }, true, params);
  }

  /** Uploads a CSV file from memory. Retried on 429/503. */
  public Batch create(byte[] csv, BatchParams params) {
    Objects.requireNonNull(csv, "csv");
    return upload(() -> HttpRequest.BodyPublishers.ofByteArray(csv), true, params);
  }

  /**
   * Uploads a CSV file from a stream (sent chunked, as it is read). A stream cannot be sent twice, so this upload is
   * never retried: prefer {@link #create(Path, BatchParams)} for a file. The stream is read to its end, not closed.
   */
  public Batch create(InputStream csv, BatchParams params) {
    Objects.requireNonNull(csv, "csv");
    return upload(() -> HttpRequest.BodyPublishers.ofInputStream(() -> csv), false, params);
  }

  private Batch upload(java.util.function.Supplier<HttpRequest.BodyPublisher> body, boolean replayable, BatchParams params) {
    Transport.Call call = new Transport.Call("POST", "/v1/batches" + (params == null ? "" : params.queryString()));
    call.body = body;
    call.contentType = params == null ? "text/csv" : params.contentType();
    call.replayable = replayable;
    return transport.json(call, Batch.class);
  }

  /** {@code GET /v1/batches/{id}}. */
  public Batch get(String batchId) {
    return transport.json(Transport.Call.get(path(batchId)), Batch.class);
  }

  /** {@code GET /v1/batches}: the account's batches, newest first. */
  public List<Batch> list() {
    return transport.<BatchList>json(Transport.Call.get("/v1/batches"), BatchList.class).batches();
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

  /**
   * {@code GET /v1/batches/{id}/result}: the enriched CSV, streamed; close it. 409 ({@link ConflictException}) until
   * the batch is completed, unless {@code partial} (the rows done so far). The client's timeout bounds the wait for
   * the answer to begin, not the reading of the stream.
   */
  public InputStream result(String batchId, boolean partial) {
    Transport.Call call = Transport.Call.get(path(batchId) + "/result" + (partial ? "?partial=true" : ""));
    return transport.stream(call);
  }

  /** {@code DELETE /v1/batches/{id}}: cancels the batch (if it has not ended) and deletes its file and results. */
  public Batch cancel(String batchId) {
    return transport.json(Transport.Call.delete(path(batchId)), Batch.class);
  }

  /** {@code POST /v1/batches/{id}/resume}: goes on with a paused batch (409 if it is not paused). */
  public Batch resume(String batchId) {
    return transport.json(new Transport.Call("POST", path(batchId) + "/resume"), Batch.class);
  }

  private static String path(String batchId) {
    Objects.requireNonNull(batchId, "batchId");
    return "/v1/batches/" + Paths.segment(batchId);
  }
}
