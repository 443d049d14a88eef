package io.spillway.codel;

import java.util.ArrayList;
import java.util.List;

/**
 * The queue's rules written as plainly as possible, single-threaded, with a list ordered oldest first. The property
 * test checks that {@link MpscCodelQueue} makes exactly the same decisions.
 */
final class ReferenceCodelQueue {

  private static final class Waiting {
    final String id;
    final long enqueuedAt;
    final long deadline;

    Waiting(String id, long enqueuedAt, long deadline) {
      this.id = id;
      this.enqueuedAt = enqueuedAt;
      this.deadline = deadline;
    }
  }

  /** Every outcome in order: "served:id" or "id:REASON". */
  final List<String> outcomes = new ArrayList<>();
  /** Whether an entry was ever served ahead of an older one (for coverage statistics). */
  boolean servedNewestFirst;

  private final List<Waiting> waiting = new ArrayList<>();
  private CodelConfig config;
  private CodelConfig requested;
  private boolean overloaded;
  private boolean lifo;
  private long intervalEnd;
  private Long minSample;

  ReferenceCodelQueue(CodelConfig config, long now) {
    this.config = config;
    this.requested = config;
    this.intervalEnd = now + config.intervalNanos();
  }

  boolean offer(String id, long now, long deadline) {
    if (waiting.size() >= config.capacity()) {
      outcomes.add(id + ":" + DropReason.QUEUE_FULL);
      return false;
    }
    waiting.add(new Waiting(id, now, deadline));
    return true;
  }

  void reconfigure(CodelConfig newConfig) {
    requested = newConfig;
  }

  String poll(long now) {
    begin(now);
    while (!waiting.isEmpty() && reason(waiting.get(0), now) != null) {
      dropAt(0, now);
    }
    String served = null;
    while (!waiting.isEmpty() && served == null) {
      int index = lifo ? waiting.size() - 1 : 0;
      if (reason(waiting.get(index), now) != null) {
        dropAt(index, now);
      } else {
        servedNewestFirst |= index > 0;
        served = waiting.remove(index).id;
        outcomes.add("served:" + served);
      }
    }
    end();
    return served;
  }

  int dropExpired(long now) {
    begin(now);
    int dropped = 0;
    for (int i = 0; i < waiting.size(); ) {
      if (reason(waiting.get(i), now) != null) {
        dropAt(i, now);
        dropped++;
      } else {
        i++;
      }
    }
    end();
    return dropped;
  }

  int size() {
    return waiting.size();
  }

  QueueMode mode() {
    return lifo ? QueueMode.LIFO : QueueMode.FIFO;
  }

  private void begin(long now) {
    config = requested;
    long sample = waiting.isEmpty() ? 0 : now - waiting.get(0).enqueuedAt;
    if (now >= intervalEnd) {
      if (minSample != null) {
        overloaded = minSample > config.targetNanos();
      }
      if (overloaded) {
        lifo = true;
      }
      intervalEnd = now + config.intervalNanos();
      minSample = null;
    }
    minSample = minSample == null ? sample : Math.min(minSample, sample);
  }

  private void end() {
    if (waiting.isEmpty()) {
      lifo = false;
    }
  }

  private DropReason reason(Waiting w, long now) {
    if (w.deadline != MpscCodelQueue.NO_DEADLINE && now >= w.deadline) {
      return DropReason.DEADLINE;
    }
    long sojourn = now - w.enqueuedAt;
    if (sojourn >= config.queueTimeoutNanos()
        && (w.deadline == MpscCodelQueue.NO_DEADLINE || !config.deadlineOverridesTimeout())) {
      return DropReason.QUEUE_TIMEOUT;
    }
    if (overloaded && sojourn > config.sloughFactor() * config.targetNanos()) {
      return DropReason.SLOUGHED;
    }
    return null;
  }

  private void dropAt(int index, long now) {
    Waiting w = waiting.remove(index);
    outcomes.add(w.id + ":" + reason(w, now));
  }
}
