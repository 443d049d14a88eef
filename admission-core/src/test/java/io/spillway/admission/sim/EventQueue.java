package io.spillway.admission.sim;

import io.spillway.testkit.VirtualClock;
import java.util.PriorityQueue;

/** Discrete-event scheduler: runs actions in time order (ties in scheduling order), advancing the virtual clock. */
public final class EventQueue {

  private static final class Event implements Comparable<Event> {
    final long at;
    final long seq;
    final Runnable action;

    Event(long at, long seq, Runnable action) {
      this.at = at;
      this.seq = seq;
      this.action = action;
    }

    @Override
    public int compareTo(Event o) {
      int c = Long.compare(at, o.at);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  private final PriorityQueue<Event> events = new PriorityQueue<>();
  private final VirtualClock clock;
  private long seq;

  public EventQueue(VirtualClock clock) {
    this.clock = clock;
  }

  public VirtualClock clock() {
    return clock;
  }

  public void at(long time, Runnable action) {
    events.add(new Event(Math.max(time, clock.read()), seq++, action));
  }

  public void after(long delayNanos, Runnable action) {
    at(clock.read() + delayNanos, action);
  }

  /** Runs every event up to and including {@code end}, then leaves the clock at {@code end}. */
  public void runUntil(long end) {
    while (!events.isEmpty() && events.peek().at <= end) {
      Event e = events.poll();
      clock.advanceTo(e.at);
      e.action.run();
    }
    clock.advanceTo(end);
  }
}
