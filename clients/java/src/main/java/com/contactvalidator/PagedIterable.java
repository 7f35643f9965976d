package com.contactvalidator;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every item of a paged list ({@code listAll()}, {@code runsAll(id)}, {@code deliveriesAll(id)}), newest first, for a
 * for-each loop or a {@link #stream()}:
 *
 * <pre>{@code
 * for (Batch batch : client.batches().listAll(50)) { ... }
 * client.batches().listAll().stream().filter(b -> b.status() == BatchStatus.FAILED).findFirst();
 * }</pre>
 *
 * <p>A page is fetched only when the iteration reaches it (nothing is fetched before the first {@code hasNext()}),
 * after the last item's id ({@code starting_after}), until the service says no page follows ({@code has_more} false).
 * Each page is one call, with the client's timeout and retries; a failed call is thrown from {@code hasNext()}. Each
 * {@link #iterator()} (each loop, each stream) walks the list again from its first page.
 */
public final class PagedIterable<T> implements Iterable<T> {
  /** One page of a list: its items, whether more follow, and the cursor of the next page. */
  record Page<T>(List<T> items, boolean hasMore, String nextStartingAfter) {}

  private final String startingAfter;
  private final Function<String, Page<T>> fetch;

  /** {@code fetch} asks for the page after the id it is given ({@code null}: the first page). */
  PagedIterable(String startingAfter, Function<String, Page<T>> fetch) {
    this.startingAfter = startingAfter;
    this.fetch = fetch;
  }

  @Override
  public Iterator<T> iterator() {
    return new Iterator<>() {
      private String after = startingAfter;
      private Iterator<T> page = List.<T>of().iterator();
      private boolean last;

      @Override
      public boolean hasNext() {
        while (!page.hasNext()) {
          if (last) return false;
          Page<T> next = fetch.apply(after);
          page = next.items().iterator();
          after = next.nextStartingAfter();
          last = !next.hasMore() || after == null;
        }
        return true;
      }

      @Override
      public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return page.next();
      }
    };
  }

  @Override
  public Spliterator<T> spliterator() {
    return Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL);
  }

  /** The items as a sequential stream, fetching pages as the stream pulls them ({@code findFirst()} reads one). */
  public Stream<T> stream() {
    return StreamSupport.stream(this::spliterator, Spliterator.ORDERED | Spliterator.NONNULL, false);
  }
}
