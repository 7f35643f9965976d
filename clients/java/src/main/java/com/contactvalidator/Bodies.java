package com.contactvalidator;

import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The request bodies the generated methods send: a JSON object of the members given, and an upload (a file opened
 * again for each attempt, bytes, or a stream that can be sent once).
 */
final class Bodies {
  private Bodies() {}

  /** A JSON object of the members given: a null member is left out, unless it must be sent (as null). */
  static final class Members {
    private final JsonObject object = new JsonObject();

    Members put(String name, Object value, boolean sendNull) {
      if (value != null) object.add(name, Json.GSON.toJsonTree(value));
      else if (sendNull) object.add(name, JsonNull.INSTANCE);
      return this;
    }

    String json() {
      // Gson leaves out JsonNull members unless told to keep them: written by hand, so that an explicit null is sent.
      return Json.GSON.newBuilder().serializeNulls().create().toJson(object);
    }
  }

  /** An upload's body, and whether it can be sent again (a 429/503 is then retried). */
  static final class Upload {
    final Supplier<HttpRequest.BodyPublisher> publisher;
    final boolean replayable;

    Upload(Supplier<HttpRequest.BodyPublisher> publisher, boolean replayable) {
      this.publisher = publisher;
      this.replayable = replayable;
    }
  }

  static Upload upload(Path file) {
    Objects.requireNonNull(file, "file");
    if (!Files.isReadable(file)) throw new UncheckedIOException(new FileNotFoundException(file.toString()));
    return new Upload(() -> {
      try {
        return HttpRequest.BodyPublishers.ofFile(file);
      } catch (FileNotFoundException e) {
        throw new UncheckedIOException(e);
      }
    }, true);
  }

  static Upload upload(byte[] csv) {
    Objects.requireNonNull(csv, "csv");
    return new Upload(() -> HttpRequest.BodyPublishers.ofByteArray(csv), true);
  }

  static Upload upload(InputStream csv) {
    Objects.requireNonNull(csv, "csv");
    return new Upload(() -> HttpRequest.BodyPublishers.ofInputStream(() -> csv), false);
  }
}
