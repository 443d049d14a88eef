package io.spillway.demo.pipeline;

import io.spillway.admission.OpType;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed, CPU-free cost per storage operation, paid on the storage executor thread before the operation runs, as a
 * disk-bound store pays its seek and fsync: the thread waits (parks) without using a core. With {@code n} storage
 * threads and a cost of {@code c} per op, a node serves at most {@code n / c} ops per second whatever its CPU, so
 * the demo can reach storage overload on a laptop without saturating the CPU with the load generator. Zero (the
 * default outside the demo) measures the raw node.
 *
 * @param read cost of a GET or MGET
 * @param write cost of a SET or DEL (paid before the write is sent to Raft; replication comes on top)
 * @param scan cost of a RANGE
 */
public record StorageCost(Duration read, Duration write, Duration scan) {
  /** Per storage thread: the scheduled end of its last op. */
  private static final ThreadLocal<long[]> LAST_END = ThreadLocal.withInitial(() -> new long[] {Long.MIN_VALUE / 2});
  /** Largest cost accepted per op. */
  public static final Duration MAX = Duration.ofSeconds(1);
  /** No added cost: the raw node. */
  public static final StorageCost NONE = new StorageCost(Duration.ZERO, Duration.ZERO, Duration.ZERO);

  /** Validates the costs. */
  public StorageCost {
    check("read", read);
    check("write", write);
    check("scan", scan);
  }

  private static void check(String name, Duration d) {
    if (d.isNegative() || d.compareTo(MAX) > 0) {
      throw new IllegalArgumentException("storage cost of a " + name + " must be in [0, " + MAX.toMillis()
          + "] ms, was " + d.toMillis() + " ms");
    }
  }

  /**
   * Parses {@code read,write,scan} in milliseconds (fractions allowed), or one number for all three.
   *
   * @throws IllegalArgumentException naming the option if the text is malformed or out of range
   */
  public static StorageCost parse(String text) {
    final String[] parts = text.split(",", -1);
    if (parts.length != 1 && parts.length != 3) {
      throw new IllegalArgumentException("storage-cost-ms must be 'ms' or 'read,write,scan' ms, was '" + text + "'");
    }
    try {
      final Duration read = millis(parts[0]);
      return parts.length == 1 ? new StorageCost(read, read, read)
          : new StorageCost(read, millis(parts[1]), millis(parts[2]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("storage-cost-ms must be numbers of ms, was '" + text + "'", e);
    }
  }

  private static Duration millis(String s) {
    return Duration.ofNanos(Math.round(Double.parseDouble(s.trim()) * 1e6));
  }

  /** The cost of one op of the given type. */
  public Duration of(OpType op) {
    return switch (op) {
      case READ -> read;
      case WRITE -> write;
      case SCAN -> scan;
    };
  }

  /**
   * Ops a second that {@code threads} storage threads complete at a mix of {@code readShare} reads and the rest writes
   * ({@code threads / (readShare × read cost + (1 − readShare) × write cost)}); NaN when that mix costs nothing.
   */
  public double opsPerSecond(int threads, double readShare) {
    final double opNanos = readShare * read.toNanos() + (1 - readShare) * write.toNanos();
    return opNanos <= 0 ? Double.NaN : threads * 1e9 / opNanos;
  }

  /**
   * Waits out the cost of one op on the calling (storage) thread without using CPU; keeps the interrupt flag.
   *
   * <p>The wait ends on the device's schedule, not the scheduler's: a thread that runs ops back to back ends each one
   * {@code cost} after the previous one's scheduled end ({@link #scheduledEnd}), so a late wake-up (a busy host's
   * run queue, timer slack) is taken out of the next wait instead of adding up. Without it, a load average of 9 on 2
   * cores added ~1.9 ms to every 20 ms read and cut the node's capacity by 8 % below {@code threads / cost}.
   */
  void pay(OpType op) {
    final long nanos = of(op).toNanos();
    if (nanos <= 0) {
      return;
    }
    final long[] last = LAST_END.get();
    final long end = scheduledEnd(System.nanoTime(), last[0], nanos);
    last[0] = end;
    long left = end - System.nanoTime();
    while (left > 0 && !Thread.currentThread().isInterrupted()) {
      LockSupport.parkNanos(left);
      left = end - System.nanoTime();
    }
  }

  /**
   * When an op that starts at {@code now} ends: {@code cost} after the previous op's scheduled end if the thread came
   * straight from it (less than one cost later), else {@code cost} after now (an idle device banks no capacity).
   */
  static long scheduledEnd(long now, long previousEnd, long cost) {
    final long sincePrevious = now - previousEnd;
    return sincePrevious >= 0 && sincePrevious < cost ? previousEnd + cost : now + cost;
  }

  /** {@code read/write/scan ms}, for {@code /status} and the demo's banner. */
  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT, "read %.1f ms, write %.1f ms, scan %.1f ms",
        read.toNanos() / 1e6, write.toNanos() / 1e6, scan.toNanos() / 1e6);
  }
}
