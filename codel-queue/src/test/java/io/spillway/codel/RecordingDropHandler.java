package io.spillway.codel;

import java.util.ArrayList;
import java.util.List;

/** Remembers every drop in order, for single-threaded tests. */
final class RecordingDropHandler<E> implements DropHandler<E> {

  /** One drop. */
  static final class Drop<E> {
    final E entry;
    final DropReason reason;

    Drop(E entry, DropReason reason) {
      this.entry = entry;
      this.reason = reason;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Drop && ((Drop<?>) o).entry.equals(entry) && ((Drop<?>) o).reason == reason;
    }

    @Override
    public int hashCode() {
      return entry.hashCode() * 31 + reason.hashCode();
    }

    @Override
    public String toString() {
      return entry + ":" + reason;
    }
  }

  final List<Drop<E>> drops = new ArrayList<>();

  @Override
  public void onDrop(E entry, DropReason reason) {
    drops.add(new Drop<>(entry, reason));
  }

  List<Drop<E>> takeAll() {
    List<Drop<E>> out = new ArrayList<>(drops);
    drops.clear();
    return out;
  }

  static <E> Drop<E> drop(E entry, DropReason reason) {
    return new Drop<>(entry, reason);
  }
}
