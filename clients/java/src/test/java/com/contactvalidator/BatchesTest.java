package com.contactvalidator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(RealService.class)
class BatchesTest {
  static final String CSV = "Street,City,State,Zip,Email,Phone\n"
      + "1600 Amphitheatre Pkwy,Mountain View,CA,94043,someone@example.com,+14155550123\n"
      + "1 Infinite Loop,Cupertino,CA,95014,bad address,+1 415 555 0101\n";

  static ContactValidator client;
  static TestService service;

  @BeforeAll
  static void start(TestService s) {
    service = s;
    client = s.client().build();
  }

  @Test
  void whenAFileIsUploaded_thenItIsFollowedToCompletionAndComesBackEnriched(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("contacts.csv");
    Files.writeString(file, CSV);

    Batch created = client.batches().create(file, BatchParams.builder().name("java-path").smtp(false).build());
    assertTrue(created.batchId().startsWith("batch_"));
    assertEquals("java-path", created.name());
    assertEquals(2, created.rowsTotal());
    assertEquals(List.of("Street", "City", "State", "Zip"), created.columns().address());
    assertEquals("Email", created.columns().email());

    List<Batch> seen = new ArrayList<>();
    Batch done = client.batches().waitFor(created.batchId(), seen::add, Duration.ofMillis(100));

    assertEquals(BatchStatus.COMPLETED, done.status());
    assertEquals(2, done.rowsDone());
    assertTrue(done.creditsCharged() > 0);
    assertNotNull(done.finishedAt());
    assertTrue(!seen.isEmpty() && seen.get(seen.size() - 1).status() == BatchStatus.COMPLETED);
    String result;
    try (InputStream in = client.batches().result(created.batchId(), false)) {
      result = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String[] lines = result.split("\r\n");
    assertTrue(lines[0].startsWith("Street,City,State,Zip,Email,Phone,cv_address_status,"), lines[0]);
    assertEquals(3, lines.length);
    assertTrue(lines[2].contains("'+1 415 555 0101"), lines[2]);
    assertEquals(created.batchId(), client.batches().get(created.batchId()).batchId());
    assertTrue(client.batches().list().stream().anyMatch(b -> b.batchId().equals(created.batchId())));
  }

  @Test
  void whenUploadedFromMemoryOrAStream_thenTheColumnsNamedAreUsed() throws Exception {
    BatchParams params = BatchParams.builder().smtp(false).emailColumn("Email").build();
    Batch fromBytes = client.batches().create(CSV.getBytes(StandardCharsets.UTF_8), params);
    Batch fromStream = client.batches().create(new ByteArrayInputStream(CSV.getBytes(StandardCharsets.UTF_8)), params);

    for (Batch b : List.of(fromBytes, fromStream)) {
      assertEquals("Email", b.columns().email());
      assertEquals(null, b.columns().phone());
      assertEquals(BatchStatus.COMPLETED, client.batches().waitFor(b.batchId(), null, Duration.ofMillis(100)).status());
      try (InputStream in = client.batches().result(b.batchId(), true)) {
        assertEquals(3, new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\r\n").length);
      }
    }
  }

  @Test
  void whenMoreBatchesThanAPageAreWalked_thenEachComesOnceNewestFirstAPagePerRequest() throws Exception {
    // Arrange: five more batches, and the account's whole list read as one page.
    Set<String> created = new HashSet<>();
    byte[] csv = "Email\nsomeone@example.com\n".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < 5; i++) {
      created.add(client.batches().create(csv, BatchParams.builder().name("page " + i).smtp(false).build()).batchId());
    }
    List<Batch> whole = client.batches().list(100);
    assertTrue(whole.size() < 100, whole.size() + " batches");
    int forwarded = service.counts().get("forwarded").getAsInt();

    // Act: pages of two.
    List<Batch> walked = new ArrayList<>();
    for (Batch b : client.batches().listAll(2)) walked.add(b);

    // Assert: every batch once, in the list's order (newest first), one request per page.
    List<String> ids = walked.stream().map(Batch::batchId).toList();
    assertEquals(whole.stream().map(Batch::batchId).toList(), ids);
    assertEquals(ids.size(), new HashSet<>(ids).size());
    assertEquals(created, new HashSet<>(ids.subList(0, 5)));
    for (int i = 1; i < walked.size(); i++) {
      assertTrue(!walked.get(i).createdAt().isAfter(walked.get(i - 1).createdAt()), "item " + i + " is newer than the one before");
    }
    assertEquals((whole.size() + 1) / 2, service.counts().get("forwarded").getAsInt() - forwarded);
  }

  @Test
  void whenAStreamOfListAllStopsAtItsFirstItem_thenOnePageWasFetched() throws Exception {
    // Arrange: nothing is fetched before the stream is run.
    int forwarded = service.counts().get("forwarded").getAsInt();
    Stream<Batch> stream = client.batches().listAll(2).stream();
    assertEquals(forwarded, service.counts().get("forwarded").getAsInt());

    // Act
    Batch first = stream.findFirst().orElseThrow();

    // Assert
    assertEquals(1, service.counts().get("forwarded").getAsInt() - forwarded);
    assertEquals(client.batches().list(1).get(0).batchId(), first.batchId());
  }

  @Test
  void whenListAllStartsAfterAnIdThatIsNotABatch_thenInvalidRequestNamesStartingAfter() {
    Iterator<Batch> walk = client.batches().listAll(null, "batch_made_up").iterator();

    InvalidRequestException e = assertThrows(InvalidRequestException.class, walk::hasNext);

    assertEquals(400, e.statusCode());
    assertEquals("starting_after", e.fieldErrors().get(0).field());
  }

  @Test
  void whenARunningBatchIsCanceled_thenItIsCanceledAndItsResultIsGone() {
    // Large enough to be still running when the DELETE arrives. (A batch that has already ended is not canceled;
    // deleting one that just completed has been seen to crash the service, so this test stays clear of it.)
    StringBuilder csv = new StringBuilder("Street,City,State,Zip,Email,Phone\n");
    for (int i = 0; i < 3000; i++) csv.append(i).append(" Main St,Mountain View,CA,94043,a").append(i).append("@example.com,\n");
    Batch b = client.batches().create(csv.toString().getBytes(StandardCharsets.UTF_8),
        BatchParams.builder().smtp(false).build());

    Batch canceled = client.batches().cancel(b.batchId());

    assertEquals(b.batchId(), canceled.batchId());
    assertEquals(BatchStatus.CANCELED, canceled.status());
    assertEquals(BatchStatus.CANCELED, client.batches().get(b.batchId()).status());
    NotFoundException e = assertThrows(NotFoundException.class, () -> client.batches().result(b.batchId(), true));
    assertEquals(410, e.statusCode());
    assertEquals("batch-gone", e.problem().code());
  }
}
