package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.config.ConfigWatcher;
import io.spillway.admission.config.SpillwayConfig;
import io.spillway.admission.event.AdmissionListener;
import io.spillway.admission.event.AdmitEvent;
import io.spillway.admission.event.LimitChangeEvent;
import io.spillway.admission.event.ModeChangeEvent;
import io.spillway.admission.event.RejectEvent;
import io.spillway.admission.event.ReloadEvent;
import io.spillway.testkit.VirtualClock;
import io.spillway.codel.QueueMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine calls its listeners: admit, reject (real and dry-run), limit change, queue mode change, reload. */
class EngineListenersTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);

  /** Records every event. */
  private static final class Recorder implements AdmissionListener {
    final List<AdmitEvent> admits = new ArrayList<>();
    final List<RejectEvent> rejects = new ArrayList<>();
    final List<LimitChangeEvent> limits = new ArrayList<>();
    final List<ModeChangeEvent> modes = new ArrayList<>();
    final List<ReloadEvent> reloads = new ArrayList<>();

    @Override
    public void onAdmit(AdmitEvent event) {
      admits.add(event);
    }

    @Override
    public void onReject(RejectEvent event) {
      rejects.add(event);
    }

    @Override
    public void onLimitChange(LimitChangeEvent event) {
      limits.add(event);
    }

    @Override
    public void onModeChange(ModeChangeEvent event) {
      modes.add(event);
    }

    @Override
    public void onReload(ReloadEvent event) {
      reloads.add(event);
    }
  }

  private static EngineConfig.Builder fixedLimit(int limit) {
    return EngineConfig.builder().limitInitial(limit).limitMin(limit).limitMax(limit)
        .clientsDefault(100, 1, Tier.T1);
  }

  private static final AdmissionCallback IGNORE = new AdmissionCallback() {
    @Override
    public void onAdmitted(long token) {}

    @Override
    public void onRejected(Reason reason, long retryAfterNanos) {}
  };

  @Test
  void admissionsAndRejectionsReachTheListenersWithTheirDetails() {
    AdmissionEngine engine = AdmissionEngine.create(fixedLimit(1).build(), clock::read);
    Recorder recorder = new Recorder();
    engine.listeners().add(recorder);
    ClientHandle c = engine.clients().register("checkout");
    clock.advanceTo(7 * MS);

    long token = engine.tryAcquire(OpType.READ, Tier.T0, c);
    long refused = engine.tryAcquire(OpType.WRITE, Tier.T2, c);
    assertThat(recorder.admits).containsExactly(
        new AdmitEvent(OpType.READ, Tier.T1, "checkout", 0L, false, 7 * MS)); // T0 claim capped to the class's T1
    assertThat(recorder.rejects).containsExactly(new RejectEvent(OpType.WRITE, Tier.T2, "checkout",
        Reason.INFLIGHT_LIMIT, Decisions.retryAfterNanos(refused), false, 7 * MS));

    engine.submit(OpType.SCAN, Tier.T3, c, DIRECT, IGNORE); // queues: the limit is held
    clock.advanceTo(19 * MS);
    engine.release(token, Outcome.SUCCESS, MS); // frees the permit: the scan is dispatched after 12 ms
    assertThat(recorder.admits).hasSize(2);
    assertThat(recorder.admits.get(1)).isEqualTo(
        new AdmitEvent(OpType.SCAN, Tier.T3, "checkout", 12 * MS, false, 19 * MS));
  }

  @Test
  void dryRunReportsWouldBeRejectionsAndAdmitsAnyway() {
    AdmissionEngine engine = AdmissionEngine.create(fixedLimit(1).dryRun(true).build(), clock::read);
    Recorder recorder = new Recorder();
    engine.listeners().add(recorder);
    ClientHandle c = engine.clients().register("c");
    engine.tryAcquire(OpType.READ, Tier.T2, c);
    engine.tryAcquire(OpType.READ, Tier.T2, c);
    assertThat(recorder.admits).hasSize(2).allSatisfy(e -> assertThat(e.dryRun()).isTrue());
    assertThat(recorder.rejects).singleElement().satisfies(e -> {
      assertThat(e.reason()).isEqualTo(Reason.INFLIGHT_LIMIT);
      assertThat(e.dryRun()).isTrue();
      assertThat(e.retryAfterNanos()).isPositive();
    });
  }

  @Test
  void limitChangesAndQueueModeChangesAreReportedFromTheControlLoop() {
    EngineConfig config = fixedLimit(2).queuesTimeout(OpType.READ, Duration.ofSeconds(10))
        .queuesSloughFactor(OpType.READ, 100).build();
    AdmissionEngine engine = AdmissionEngine.create(config, clock::read);
    Recorder recorder = new Recorder();
    engine.listeners().add(recorder);
    ClientHandle c = engine.clients().register("c");
    long a = engine.tryAcquire(OpType.READ, Tier.T1, c);
    long b = engine.tryAcquire(OpType.READ, Tier.T1, c);
    for (int i = 0; i < 2; i++) {
      engine.submit(OpType.READ, Tier.T4, c, DIRECT, IGNORE); // a standing queue in the READ/T4 band
    }
    for (int i = 1; i <= 6; i++) { // 300 ms: the 5 ms CoDel target is exceeded over whole 100 ms intervals
      clock.advanceTo(i * 50 * MS);
      engine.tick();
    }
    assertThat(engine.stats().queue(OpType.READ, Tier.T4).mode()).isEqualTo(QueueMode.LIFO);
    assertThat(recorder.modes).containsExactly(
        new ModeChangeEvent(OpType.READ, Tier.T4, QueueMode.FIFO, QueueMode.LIFO, recorder.modes.get(0).atNanos()));

    engine.release(a, Outcome.SUCCESS, MS);
    engine.release(b, Outcome.SUCCESS, MS); // both queued requests start: the queue empties, back to FIFO
    clock.advanceTo(350 * MS);
    engine.tick();
    assertThat(recorder.modes).hasSize(2);
    assertThat(recorder.modes.get(1)).isEqualTo(
        new ModeChangeEvent(OpType.READ, Tier.T4, QueueMode.LIFO, QueueMode.FIFO, 350 * MS));

    engine.reconfigure(engine.config().toBuilder().limitInitial(1).limitMin(1).limitMax(1).build());
    assertThat(recorder.limits).singleElement().satisfies(e -> {
      assertThat(e.previousLimit()).isEqualTo(2);
      assertThat(e.newLimit()).isEqualTo(1);
    });
  }

  @Test
  void aThrowingListenerNeverFailsARequest() {
    AdmissionEngine engine = AdmissionEngine.create(fixedLimit(1).build(), clock::read);
    engine.listeners().add(new AdmissionListener() {
      @Override
      public void onAdmit(AdmitEvent event) {
        throw new IllegalStateException("listener bug");
      }

      @Override
      public void onReject(RejectEvent event) {
        throw new IllegalStateException("listener bug");
      }
    });
    Recorder after = new Recorder();
    engine.listeners().add(after);
    ClientHandle c = engine.clients().register("c");
    long token = engine.tryAcquire(OpType.READ, Tier.T1, c);
    assertThat(Decisions.isAdmitted(token)).isTrue();
    assertThat(Decisions.reason(engine.tryAcquire(OpType.READ, Tier.T1, c))).isEqualTo(Reason.INFLIGHT_LIMIT);
    assertThat(engine.release(token, Outcome.SUCCESS, MS)).isTrue();
    assertThat(engine.listeners().failures()).isEqualTo(2);
    assertThat(after.admits).hasSize(1);
    assertThat(after.rejects).hasSize(1);
    assertThat(engine.stats().inflight()).isZero();
  }

  @Test
  void reloadsReachTheEnginesListeners(@TempDir Path dir) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.defaults(), clock::read);
    Recorder recorder = new Recorder();
    engine.listeners().add(recorder);
    Path file = dir.resolve("spillway.yaml");
    Files.writeString(file, "dry-run: true\n");
    try (ConfigWatcher<EngineConfig> watcher = SpillwayConfig.watch(file, engine)) {
      watcher.reloadNow();
    }
    assertThat(engine.config().dryRun()).isTrue();
    assertThat(recorder.reloads).singleElement().satisfies(e -> {
      assertThat(e.applied()).isTrue();
      assertThat(e.changes()).anySatisfy(change -> assertThat(change).contains("dry-run"));
    });
  }
}
