// Generated from the OpenAPI description (GET /v1/openapi.json) by clients/generate-models.ts; do not edit.
package com.contactvalidator;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** {@code client.batches()}: the batches operations (Batches adds to them). */
public abstract class BatchesOperations {
  final Transport transport;

  BatchesOperations(Transport transport) {
    this.transport = transport;
  }

  /**
   * {@code POST /v1/batches}: Upload a CSV file to validate in the background.
   * The file as the body ({@code text/csv}, streamed to disk), or the part {@code file} of {@code multipart/form-data}, at most BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; {@code ,}, {@code ;} or tab; RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, a field over BATCH_MAX_FIELD_BYTES (65536), or a row over BATCH_MAX_ROW_BYTES (1048576 bytes, the header line included) is found while the file streams in: 422 {@code invalid-csv} with its {@code line}, nothing kept. Each row is priced and charged like one /v1/validate request as it is processed. Parameters go in the query or as form fields.
   */
  public Batch create(Path file, BatchParams params) {
    return create(Bodies.upload(file), params);
  }

  /**
   * {@code POST /v1/batches}: Upload a CSV file to validate in the background.
   * The file as the body ({@code text/csv}, streamed to disk), or the part {@code file} of {@code multipart/form-data}, at most BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; {@code ,}, {@code ;} or tab; RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, a field over BATCH_MAX_FIELD_BYTES (65536), or a row over BATCH_MAX_ROW_BYTES (1048576 bytes, the header line included) is found while the file streams in: 422 {@code invalid-csv} with its {@code line}, nothing kept. Each row is priced and charged like one /v1/validate request as it is processed. Parameters go in the query or as form fields.
   */
  public Batch create(byte[] csv, BatchParams params) {
    return create(Bodies.upload(csv), params);
  }

  /**
   * {@code POST /v1/batches}: Upload a CSV file to validate in the background.
   * The file as the body ({@code text/csv}, streamed to disk), or the part {@code file} of {@code multipart/form-data}, at most BATCH_MAX_BYTES (100 MiB). The first line is the header, and at least one data row must follow; {@code ,}, {@code ;} or tab; RFC 4180 quoting. A row of more than BATCH_MAX_COLUMNS (500) columns, a field over BATCH_MAX_FIELD_BYTES (65536), or a row over BATCH_MAX_ROW_BYTES (1048576 bytes, the header line included) is found while the file streams in: 422 {@code invalid-csv} with its {@code line}, nothing kept. Each row is priced and charged like one /v1/validate request as it is processed. Parameters go in the query or as form fields.
   */
  public Batch create(InputStream csv, BatchParams params) {
    return create(Bodies.upload(csv), params);
  }

  private Batch create(Bodies.Upload upload, BatchParams params) {
    Transport.Call call = Transport.Call.json("POST", "/v1/batches" + (params == null ? "" : params.queryString()), null);
    call.body = upload.publisher;
    call.replayable = upload.replayable;
    call.contentType = params == null ? "text/csv" : params.contentType();
    return transport.json(call, Batch.class);
  }

  /**
   * {@code GET /v1/batches}: The account's batches, newest first.
   */
  public List<Batch> list(Integer limit, String startingAfter) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("limit", limit == null ? null : limit.toString());
    parameters.put("starting_after", startingAfter);
    Transport.Call call = Transport.Call.json("GET", "/v1/batches" + Paths.query(parameters), null);
    return transport.<BatchList>json(call, BatchList.class).batches();
  }

  /** {@link #list} without {@code startingAfter}. */
  public List<Batch> list(Integer limit) {
    return list(limit, null);
  }

  /** {@link #list} without {@code limit}, {@code startingAfter}. */
  public List<Batch> list() {
    return list(null, null);
  }

  /**
   * {@code GET /v1/batches}, every page: the items of {@link #list} one at a time, for a for-each loop or {@code stream()}.
   * A page ({@code limit} items) is fetched when the iteration reaches it, after the last item's id; each page is one call with these arguments.
   */
  public PagedIterable<Batch> listAll(Integer limit, String startingAfter) {
    return new PagedIterable<>(startingAfter, after -> {
      Map<String, String> parameters = new LinkedHashMap<>();
      parameters.put("limit", limit == null ? null : limit.toString());
      parameters.put("starting_after", after);
      Transport.Call call = Transport.Call.json("GET", "/v1/batches" + Paths.query(parameters), null);
      BatchList page = transport.<BatchList>json(call, BatchList.class);
      return new PagedIterable.Page<>(page.batches(), page.hasMore(), page.nextStartingAfter());
    });
  }

  /** {@link #listAll} without {@code startingAfter}. */
  public PagedIterable<Batch> listAll(Integer limit) {
    return listAll(limit, null);
  }

  /** {@link #listAll} without {@code limit}, {@code startingAfter}. */
  public PagedIterable<Batch> listAll() {
    return listAll(null, null);
  }

  /**
   * {@code GET /v1/batches/{batch_id}}: A batch's status and progress.
   * Another account's batch answers 404, exactly like a missing one.
   */
  public Batch get(String batchId) {
    Objects.requireNonNull(batchId, "batchId");
    Transport.Call call = Transport.Call.json("GET", "/v1/batches/" + Paths.segment(batchId), null);
    return transport.json(call, Batch.class);
  }

  /**
   * {@code DELETE /v1/batches/{batch_id}}: Cancel a batch and delete its files.
   * The batch stays listed as {@code canceled}; its result answers 410.
   */
  public Batch cancel(String batchId) {
    Objects.requireNonNull(batchId, "batchId");
    Transport.Call call = Transport.Call.json("DELETE", "/v1/batches/" + Paths.segment(batchId), null);
    return transport.json(call, Batch.class);
  }

  /**
   * {@code GET /v1/batches/{batch_id}/result}: Download the enriched file.
   * Every input column in its order and spelling, then {@code cv_address_status, cv_address_standardized, cv_address_dpv, cv_address_zip4, cv_email_status, cv_email_risk, cv_email_smtp, cv_email_suggestion, cv_phone_status, cv_phone_type, cv_phone_carrier, cv_phone_e164, cv_error, cv_address_notes, cv_email_reason, cv_email_flags, cv_next_action, cv_address_lat, cv_address_lon, cv_address_precision, cv_address_evidence, cv_address_changes, cv_feedback}; rows in input order, with the input's delimiter and CRLF between rows. A cell holding a line break (CR, LF or CRLF) is quoted, so that every row is one record. A cell a spreadsheet would run as a formula is written with a leading {@code '} (OWASP), unless it is a plain number.
   */
  public InputStream result(String batchId, Boolean partial, Boolean formulaEscape) {
    Objects.requireNonNull(batchId, "batchId");
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("partial", partial == null ? null : partial.toString());
    parameters.put("formula_escape", formulaEscape == null ? null : formulaEscape.toString());
    Transport.Call call = Transport.Call.json("GET", "/v1/batches/" + Paths.segment(batchId) + "/result" + Paths.query(parameters), null);
    return transport.stream(call);
  }

  /** {@link #result} without {@code formulaEscape}. */
  public InputStream result(String batchId, Boolean partial) {
    return result(batchId, partial, null);
  }

  /** {@link #result} without {@code partial}, {@code formulaEscape}. */
  public InputStream result(String batchId) {
    return result(batchId, null, null);
  }

  /**
   * {@code POST /v1/batches/{batch_id}/resume}: Resume a paused batch now.
   * A batch paused for want of credits also goes on by itself once the account has enough.
   */
  public Batch resume(String batchId) {
    Objects.requireNonNull(batchId, "batchId");
    Transport.Call call = Transport.Call.json("POST", "/v1/batches/" + Paths.segment(batchId) + "/resume", null);
    return transport.json(call, Batch.class);
  }
}
