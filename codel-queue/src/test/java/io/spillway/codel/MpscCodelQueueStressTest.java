package io.spillway.codel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * Producers race each other and the consumer: capacity stays exact and every entry ends exactly once (served or
 * dropped), none lost, none duplicated, while the consumer also reconfigures (growing the producer ring under load).
 * Bounded: a fixed number of entries, and every wait has a timeout.
 */
class MpscCodelQueueStressTest {

  private static final int PRODUCERS = 4;
  private static final long GUARD_NANOS = TimeUnit.SECONDS.toNanos(60);

  @Test
  void acceptsExactlyCapacityWhenProducersRaceForTheLastSlots() throws InterruptedException {
    AtomicLong refused = new AtomicLong();
    // Time stands still, so no entry ages: this test is about admission only, never about overload or expiry.
    Ticker frozen = () -> 42L;
    MpscCodelQueue<Integer> queue = new MpscCodelQueue<>(
        CodelConfig.builder().capacity(100).build(), frozen, (e, r) -> refused.incrementAndGet());
    int perProducer = 500;
    runProducers(p -> {
      for (int i = 0; i < perProducer; i++) {
        queue.offer(p * perProducer + i);
      }
    });
    assertThat(queue.size()).isEqualTo(100);
    assertThat(refused.get()).isEqualTo(PRODUCERS * perProducer - 100L);

    for (int i = 0; i < 37; i++) {
      assertThat(queue.poll()).isNotNull();
    }
    runProducers(p -> {
      for (int i = 0; i < perProducer; i++) {
        queue.offer(10_000 + p * perProducer + i);
      }
    });
    assertThat(queue.size()).isEqualTo(100);
    assertThat(refused.get()).isEqualTo(2L * PRODUCERS * perProducer - 137L);

    // Each producer's entries come out in the order it offered them (FIFO per producer).
    int[] lastSeen = new int[PRODUCERS * 2];
    Arrays.fill(lastSeen, -1);
    int served = 0;
    for (Integer e = queue.poll(); e != null; e = queue.poll()) {
      int stream = e >= 10_000 ? PRODUCERS + (e - 10_000) / perProducer : e / perProducer;
      assertThat(e).isGreaterThan(lastSeen[stream]);
      lastSeen[stream] = e;
      served++;
    }
    assertThat(served).isEqualTo(100);
    assertThat(queue.stats().offered()).isEqualTo(2L * PRODUCERS * perProducer);
  }

  @Test
  void everyEntryIsServedOrDroppedExactlyOnce() throws InterruptedException {
    int perProducer = 25_000;
    int total = PRODUCERS * perProducer;
    AtomicIntegerArray endings = new AtomicIntegerArray(total);
    AtomicLong dropped = new AtomicLong();
    CodelConfig small = CodelConfig.builder().target(Duration.ofNanos(50_000)).interval(Duration.ofMillis(1))
        .queueTimeout(Duration.ofMillis(2)).capacity(64).build();
    int[] capacities = {64, 300, 40, 1000, 5000, 128};
    MpscCodelQueue<Integer> queue = new MpscCodelQueue<>(small, Ticker.system(), (e, r) -> {
      endings.incrementAndGet(e);
      dropped.incrementAndGet();
    });

    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(PRODUCERS);
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int first = p * perProducer;
      Thread t = new Thread(() -> {
        try {
          if (!start.await(10, TimeUnit.SECONDS)) {
            return;
          }
          ThreadLocalRandom random = ThreadLocalRandom.current();
          for (int i = 0; i < perProducer; i++) {
            int kind = random.nextInt(4);
            long deadline = kind == 0 ? System.nanoTime() - 1 // already past
                : kind == 1 ? System.nanoTime() + random.nextLong(1_000_000) : MpscCodelQueue.NO_DEADLINE;
            queue.offer(first + i, deadline);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          finished.countDown();
        }
      }, "codel-producer-" + p);
      producers.add(t);
      t.start();
    }

    start.countDown();
    long served = 0;
    long guard = System.nanoTime() + GUARD_NANOS;
    int maxCapacity = 0;
    for (long step = 0; ; step++) {
      Integer e = queue.poll();
      if (e != null) {
        endings.incrementAndGet(e);
        served++;
      }
      if (step % 64 == 0) {
        queue.dropExpired();
      }
      if (step % 2_000 == 0) {
        int capacity = capacities[(int) (step / 2_000) % capacities.length];
        maxCapacity = Math.max(maxCapacity, capacity);
        queue.reconfigure(small.toBuilder().capacity(capacity).build());
      }
      assertThat(queue.size()).isLessThanOrEqualTo(Math.max(maxCapacity, 64));
      if (e == null && finished.getCount() == 0 && queue.isEmpty()) {
        break;
      }
      assertThat(System.nanoTime() - guard).as("stress run exceeded its guard").isNegative();
    }
    for (Thread t : producers) {
      t.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(t.isAlive()).isFalse();
    }

    for (int id = 0; id < total; id++) {
      assertThat(endings.get(id)).as("endings of entry %d", id).isEqualTo(1);
    }
    QueueStats stats = queue.stats();
    assertThat(served + dropped.get()).isEqualTo(total);
    assertThat(stats.offered()).isEqualTo(total);
    assertThat(stats.served()).isEqualTo(served);
    long statDrops = 0;
    for (DropReason reason : DropReason.values()) {
      statDrops += stats.drops(reason);
    }
    assertThat(statDrops).isEqualTo(dropped.get());
    assertThat(stats.drops(DropReason.DEADLINE)).isPositive();
  }

  private static void runProducers(IntConsumer body) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int id = p;
      Thread t = new Thread(() -> {
        try {
          if (start.await(10, TimeUnit.SECONDS)) {
            body.accept(id);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "codel-producer-" + p);
      threads.add(t);
      t.start();
    }
    start.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(20));
      assertThat(t.isAlive()).as("producer still running").isFalse();
    }
  }
}
