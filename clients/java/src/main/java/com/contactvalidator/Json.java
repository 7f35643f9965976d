package com.contactvalidator;

import com.google.gson.FieldNamingPolicy;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** The client's one Gson: snake_case members, vocabularies as {@link ApiEnum}s, timestamps as {@link Instant}s. */
final class Json {
  static final Gson GSON = new GsonBuilder()
      .setFieldNamingPolicy(FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
      .registerTypeAdapterFactory(new ApiEnumFactory())
      .registerTypeAdapter(Instant.class, new InstantAdapter().nullSafe())
      .disableHtmlEscaping()
      .create();

  private Json() {}

  static <T> T parse(String body, Type type) {
    return GSON.fromJson(body, type);
  }

  static JsonObject parseObject(String body) {
    JsonElement e = JsonParser.parseString(body);
    return e.isJsonObject() ? e.getAsJsonObject() : new JsonObject();
  }

  /** Enums map by their wire value; a value this version does not know becomes UNRECOGNIZED instead of failing. */
  private static final class ApiEnumFactory implements TypeAdapterFactory {
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> token) {
      Class<? super T> raw = token.getRawType();
      if (!raw.isEnum() || !ApiEnum.class.isAssignableFrom(raw)) return null;
      return (TypeAdapter<T>) new ApiEnumAdapter((Class) raw);
    }
  }

  private static final class ApiEnumAdapter<E extends Enum<E> & ApiEnum> extends TypeAdapter<E> {
    private final Map<String, E> byValue = new HashMap<>();
    private final E unrecognized;

    ApiEnumAdapter(Class<E> type) {
      E fallback = null;
      for (E constant : type.getEnumConstants()) {
        if (constant.value() == null) fallback = constant;
        else byValue.put(constant.value(), constant);
      }
      unrecognized = fallback;
    }

    @Override
    public void write(JsonWriter out, E value) throws IOException {
      if (value == null || value.value() == null) out.nullValue();
      else out.value(value.value());
    }

    @Override
    public E read(JsonReader in) throws IOException {
      if (in.peek() == JsonToken.NULL) {
        in.nextNull();
        return null;
      }
      E found = byValue.get(in.nextString());
      return found != null ? found : unrecognized;
    }
  }

  private static final class InstantAdapter extends TypeAdapter<Instant> {
    @Override
    public void write(JsonWriter out, Instant value) throws IOException {
      out.value(value.toString());
    }

    @Override
    public Instant read(JsonReader in) throws IOException {
      return Instant.parse(in.nextString());
    }
  }
}
