package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reloads while request threads acquire and release: no request is lost or admitted twice. Every admitted token is
 * released exactly once, the engine's counters agree with the callers' own tally, and nothing stays in flight.
 * Request threads run for as long as the reloads take (bounded by a request cap and a timeout).
 */
class ConcurrentReloadTest {

  private static final int WORKERS = 3;
  private static final int MAX_REQUESTS_PER_WORKER = 500_000;
  private static final int RELOADS = 20;

  @TempDir
  Path dir;

  @Test
  void concurrentReloadsUnderLoadLoseNoRequest() throws Exception {
    Path file = dir.resolve("spillway.yaml");
    Files.writeString(file, variant(0));
    AdmissionEngine engine = AdmissionEngine.create(SpillwayConfig.load(file));
    ConfigWatcher<EngineConfig> watcher = new ConfigWatcher<>(file, SpillwayConfig.loader(), engine.config(),
        engine::reconfigure, r -> { }, Duration.ofSeconds(1), Duration.ZERO);

    LongAdder admitted = new LongAdder();
    LongAdder rejected = new LongAdder();
    LongAdder released = new LongAdder();
    LongAdder doubleReleases = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        ClientHandle client = engine.clients().register("web-" + w);
        workers.add(pool.submit(() -> {
          for (int i = 0; i < MAX_REQUESTS_PER_WORKER && !stop.get(); i++) {
            OpType op = OpType.ofOrdinal(i % OpType.count());
            long decision = engine.tryAcquire(op, Tier.ofOrdinal(1 + i % 5), client);
            if (!Decisions.isAdmitted(decision)) {
              rejected.increment();
              continue;
            }
            admitted.increment();
            if (engine.release(decision, Outcome.SUCCESS, ThreadLocalRandom.current().nextLong(1_000, 50_000))) {
              released.increment();
            }
            if (engine.release(decision, Outcome.SUCCESS, 1_000)) {
              doubleReleases.increment();
            }
          }
        }));
      }
      int applied = 0;
      for (int r = 1; r <= RELOADS; r++) {
        Files.writeString(file, variant(r));
        ReloadResult result = watcher.reloadNow();
        assertThat(result.status()).as(result.toString()).isNotEqualTo(ReloadResult.Status.REJECTED);
        applied += result.status() == ReloadResult.Status.APPLIED ? 1 : 0;
        engine.tick();
      }
      stop.set(true);
      for (Future<?> f : workers) {
        f.get(60, TimeUnit.SECONDS);
      }
      assertThat(applied).isEqualTo(RELOADS);
    } finally {
      stop.set(true);
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(released.sum()).isEqualTo(admitted.sum());
    assertThat(doubleReleases.sum()).isZero();
    assertThat(engine.stats().inflight()).isZero();
    long engineAdmitted = 0;
    long engineRejected = 0;
    for (Tier t : Tier.values()) {
      engineAdmitted += engine.stats().admitted(t);
      engineRejected += engine.stats().rejected(t);
    }
    assertThat(engineAdmitted).isEqualTo(admitted.sum());
    assertThat(engineRejected).isEqualTo(rejected.sum());
    assertThat(admitted.sum()).as("requests ran during the reloads").isPositive();
    long byReason = 0;
    for (Reason reason : Reason.values()) {
      byReason += reason.isRejection() ? engine.stats().rejected(reason) : 0;
    }
    assertThat(byReason).isEqualTo(rejected.sum());
  }

  /** Alternates limits, queue settings, gains and dry-run, so every reload changes something. */
  private static String variant(int r) {
    int max = 8 + (r % 4) * 8;
    return "limit:\n  initial: " + Math.min(max, 4 + r % 5) + "\n  min: 2\n  max: " + max + "\n"
        + "queues:\n  read:\n    target: " + (2 + r % 3) + "ms\n"
        + "pid:\n  kp: " + (0.1 + (r % 2) * 0.05) + "\n"
        + "dry-run: " + (r % 3 == 0) + "\n"
        + "# reload " + r + "\n";
  }
}
