package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.path.InflightLimiter;
import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many-thread invariant tests, bounded by operation counts (not time) and with a timeout on every wait: the hard cap
 * is never exceeded (also while the limit changes), a double release never frees two permits, and every
 * asynchronous request is answered exactly once.
 */
@Timeout(60)
class InflightStressTest {

  private static final int THREADS = 4;

  @Test
  void limiterNeverExceedsTheLimitWhileItChanges() throws Exception {
    InflightLimiter limiter = new InflightLimiter(8);
    AtomicInteger shadow = new AtomicInteger();
    AtomicInteger maxSeen = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
    try {
      Future<?> changer = pool.submit(() -> {
        int i = 0;
        while (!stop.get()) {
          limiter.setLimit(i++ % 2 == 0 ? 3 : 12);
        }
      });
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        workers.add(pool.submit(() -> {
          for (int i = 0; i < 20_000; i++) {
            takeAllThenRelease(limiter, shadow, maxSeen);
          }
        }));
      }
      for (Future<?> w : workers) {
        w.get(30, TimeUnit.SECONDS);
      }
      stop.set(true);
      changer.get(10, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    // Each thread takes every permit it can, so the permits held together press against the limit of the moment.
    assertThat(maxSeen.get()).isBetween(1, 12);
    assertThat(limiter.inflight()).isZero();

    // With the limit held at 3, no interleaving lets a 4th permit through.
    limiter.setLimit(3);
    maxSeen.set(0);
    runAll(index -> {
      for (int i = 0; i < 20_000; i++) {
        takeAllThenRelease(limiter, shadow, maxSeen);
      }
    });
    assertThat(maxSeen.get()).isBetween(1, 3);
    assertThat(limiter.inflight()).isZero();

    // Alone, a thread takes exactly the limit: one permit more (an off-by-one cap) shows on any number of cores.
    for (int limit : new int[] {12, 3}) {
      limiter.setLimit(limit);
      maxSeen.set(0);
      takeAllThenRelease(limiter, shadow, maxSeen);
      assertThat(maxSeen.get()).isEqualTo(limit);
    }
  }

  @Test
  void theStartRoomNeverTakesMoreThanItsPermitsPastTheLimitAndCountsEachOnce() throws Exception {
    InflightLimiter limiter = new InflightLimiter(4);
    limiter.openStartRoom(3);
    AtomicInteger shadow = new AtomicInteger();
    AtomicInteger maxSeen = new AtomicInteger();
    AtomicInteger pastLimit = new AtomicInteger();
    runAll(index -> {
      for (int i = 0; i < 20_000; i++) {
        int held = 0;
        while (limiter.tryAcquire(true)) {
          held++;
          maxSeen.accumulateAndGet(shadow.incrementAndGet(), Math::max);
        }
        while (limiter.tryAcquireFromStartRoom()) {
          held++;
          maxSeen.accumulateAndGet(shadow.incrementAndGet(), Math::max);
          pastLimit.incrementAndGet();
        }
        for (; held > 0; held--) {
          shadow.decrementAndGet();
          limiter.release();
        }
      }
    });
    assertThat(maxSeen.get()).as("the limit and the room").isBetween(5, 7);
    int counted = limiter.closeStartRoom();
    assertThat(counted).as("the room's permits taken past the limit, not permits freed meanwhile")
        .isPositive().isLessThanOrEqualTo(pastLimit.get());
    assertThat(limiter.inflight()).isZero();
  }

  /** Takes permits until refused, counting the permits all threads hold together, then releases them. */
  private static void takeAllThenRelease(InflightLimiter limiter, AtomicInteger shadow, AtomicInteger maxSeen) {
    int held = 0;
    while (limiter.tryAcquire()) {
      held++;
      maxSeen.accumulateAndGet(shadow.incrementAndGet(), Math::max);
    }
    for (; held > 0; held--) {
      shadow.decrementAndGet();
      limiter.release();
    }
  }

  @Test
  void engineHardCapHoldsAndConcurrentDoubleReleaseFreesOneSlot() throws Exception {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(
        EngineConfig.builder().limitInitial(6).limitMin(6).limitMax(6).clientsDefault(100, 1, Tier.T0).build(),
        clock::read);
    ClientHandle client = engine.clients().register("stress");
    AtomicInteger shadow = new AtomicInteger();
    AtomicInteger maxSeen = new AtomicInteger();
    AtomicLong acquisitions = new AtomicLong();
    AtomicLong releases = new AtomicLong();
    AtomicLongArray mailbox = new AtomicLongArray(THREADS);
    runAll(index -> {
      int me = index;
      long[] held = new long[8];
      for (int i = 0; i < 10_000; i++) {
        // Take every permit we can (so the permits held together reach the cap, and one more shows)...
        int n = 0;
        long token = 0;
        while (n < held.length
            && Decisions.isAdmitted(token = engine.tryAcquire(OpType.READ, Tier.T1, client, -1, 0L))) {
          held[n++] = token;
          acquisitions.incrementAndGet();
          maxSeen.accumulateAndGet(shadow.incrementAndGet(), Math::max);
        }
        if (n < held.length) {
          assertThat(Decisions.reason(token)).isEqualTo(Reason.INFLIGHT_LIMIT);
        }
        // ...then release each twice at once: ours, and the neighbour's thread releasing it from our mailbox while
        // we release one of theirs. Each permit must be freed exactly once.
        for (int k = 0; k < n; k++) {
          shadow.decrementAndGet();
          mailbox.set(me, held[k]);
          if (engine.release(held[k], Outcome.SUCCESS, 1_000L)) {
            releases.incrementAndGet();
          }
          long stolen = mailbox.getAndSet((me + 1) % THREADS, 0L);
          if (stolen != 0 && engine.release(stolen, Outcome.SUCCESS, 1_000L)) {
            releases.incrementAndGet();
          }
        }
      }
    });
    for (int i = 0; i < THREADS; i++) {
      long left = mailbox.getAndSet(i, 0L);
      if (left != 0 && engine.release(left, Outcome.SUCCESS, 1_000L)) {
        releases.incrementAndGet();
      }
    }
    assertThat(maxSeen.get()).isBetween(1, 6);
    assertThat(releases.get()).as("each permit freed exactly once").isEqualTo(acquisitions.get());
    assertThat(engine.stats().inflight()).isZero();
    assertThat(client.outstandingRequests()).isZero();
    // Capacity is intact: exactly 6 permits can be taken now.
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      tokens.add(engine.tryAcquire(OpType.READ, Tier.T1, client));
    }
    assertThat(tokens.stream().filter(Decisions::isAdmitted).count()).isEqualTo(6);
  }

  @Test
  void leasesKeepTheHardCapAndAConcurrentDoubleReleaseEndsAnAcquisitionOnce() throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(
        EngineConfig.builder().limitInitial(3).limitMin(3).limitMax(3).clientsDefault(100, 1, Tier.T0).build(),
        new VirtualClock(0)::read);
    ClientHandle client = engine.clients().register("stress");
    Lease[] leases = new Lease[THREADS];
    for (int i = 0; i < THREADS; i++) {
      leases[i] = engine.newLease();
    }
    AtomicInteger maxSeen = new AtomicInteger();
    AtomicLong acquisitions = new AtomicLong();
    AtomicLong releases = new AtomicLong();
    runAll(index -> {
      Lease mine = leases[index];
      Lease neighbour = leases[(index + 1) % THREADS];
      for (int i = 0; i < 50_000; i++) {
        if (Decisions.isAdmitted(engine.tryAcquire(mine, OpType.READ, Tier.T1, client, -1, 0L))) {
          acquisitions.incrementAndGet();
          maxSeen.accumulateAndGet(engine.stats().inflight(), Math::max);
        }
        // Race our release with the neighbour's thread releasing our lease (while we release theirs): a release
        // may end the neighbour's current acquisition, but no acquisition can end twice.
        if (mine.release(Outcome.SUCCESS, 1_000L)) {
          releases.incrementAndGet();
        }
        if (neighbour.release(Outcome.SUCCESS, 1_000L)) {
          releases.incrementAndGet();
        }
      }
    });
    assertThat(maxSeen.get()).isBetween(1, 3);
    assertThat(releases.get()).as("each acquisition ended exactly once").isEqualTo(acquisitions.get());
    assertThat(engine.stats().inflight()).isZero();
    assertThat(client.outstandingRequests()).isZero();
    for (Lease lease : leases) {
      assertThat(lease.isHeld()).isFalse();
    }
    // Capacity is intact: exactly 3 permits can be taken now.
    int held = 0;
    for (Lease lease : leases) {
      held += Decisions.isAdmitted(engine.tryAcquire(lease, OpType.READ, Tier.T1, client, -1, 0L)) ? 1 : 0;
    }
    assertThat(held).isEqualTo(3);
  }

  @Test
  void everyAsyncRequestIsAnsweredExactlyOnce() throws Exception {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(
        EngineConfig.builder().limitInitial(4).limitMin(4).limitMax(4).clientsDefault(100, 1, Tier.T0)
            .queuesCapacity(OpType.READ, 64).queuesCapacity(OpType.WRITE, 64).build(),
        clock::read);
    ClientHandle client = engine.clients().register("stress");
    int perThread = 20_000;
    AtomicIntegerArray answers = new AtomicIntegerArray(THREADS * perThread);
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    runAll(index -> {
      int base = index * perThread;
      for (int i = 0; i < perThread; i++) {
        int id = base + i;
        OpType op = (i & 1) == 0 ? OpType.READ : OpType.WRITE;
        engine.submit(op, Tier.ofOrdinal(i % 6), client, Runnable::run, new AdmissionCallback() {
          @Override
          public void onAdmitted(long token) {
            answers.incrementAndGet(id);
            admitted.incrementAndGet();
            engine.release(token, Outcome.SUCCESS, 1_000L);
          }

          @Override
          public void onRejected(Reason reason, long retryAfterNanos) {
            answers.incrementAndGet(id);
            rejected.incrementAndGet();
          }
        });
        if (ThreadLocalRandom.current().nextInt(64) == 0) {
          engine.tick();
        }
      }
    });
    engine.tick();
    for (int i = 0; i < answers.length(); i++) {
      assertThat(answers.get(i)).as("answers of request %d", i).isEqualTo(1);
    }
    assertThat(admitted.get() + rejected.get()).isEqualTo(THREADS * perThread);
    assertThat(engine.stats().inflight()).isZero();
    assertThat(engine.stats().waiting()).isZero();
    assertThat(client.outstandingRequests()).isZero();
  }

  /** Runs the task on THREADS threads started together; every wait is bounded. */
  private static void runAll(java.util.function.IntConsumer task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int index = t;
        futures.add(pool.submit(() -> {
          assertThat(start.await(10, TimeUnit.SECONDS)).isTrue();
          task.accept(index);
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(40, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }
}
