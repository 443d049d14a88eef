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
import io.spillway.admission.event.AdmissionListener;
import io.spillway.admission.event.AdmissionListeners;
import io.spillway.admission.event.ReloadEvent;
import io.spillway.testkit.VirtualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reload semantics, driven synchronously through {@link ConfigWatcher#reloadNow()}. */
class ConfigReloadTest {

  static final String BASE = "limit:\n  initial: 4\n  min: 4\n  max: 16\n";

  @TempDir
  Path dir;

  private final VirtualClock clock = new VirtualClock(1_000_000_000L);
  private final List<ReloadResult> results = new CopyOnWriteArrayList<>();
  private Path file;

  private Path write(String yaml) throws IOException {
    Path path = dir.resolve("spillway.yaml");
    Files.writeString(path, yaml);
    return path;
  }

  /** An engine started on {@link #BASE}, written to {@link #file}. */
  private AdmissionEngine started() throws IOException {
    file = write(BASE);
    return AdmissionEngine.create(SpillwayConfig.load(file), clock::read);
  }

  private ConfigWatcher<EngineConfig> watcher(AdmissionEngine engine) {
    return new ConfigWatcher<>(file, SpillwayConfig.loader(), engine.config(), engine::reconfigure, results::add,
        Duration.ofSeconds(1), Duration.ZERO);
  }

  @Test
  void aValidNewFileChangesBehaviour() throws IOException {
    AdmissionEngine engine = started();
    ClientHandle client = engine.clients().register("web-1");
    engine.tick(); // the first tick closes the start room: from here a T1 request past the limit is refused
    for (int i = 0; i < 4; i++) {
      assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, client))).isTrue();
    }
    assertThat(Decisions.reason(engine.tryAcquire(OpType.READ, Tier.T1, client))).isEqualTo(Reason.INFLIGHT_LIMIT);

    ConfigWatcher<EngineConfig> watcher = watcher(engine);
    write(BASE + "dry-run: true\n");
    ReloadResult result = watcher.reloadNow();

    assertThat(result.status()).isEqualTo(ReloadResult.Status.APPLIED);
    assertThat(result.diff().changes()).extracting(ConfigDiff.Change::toString)
        .containsExactly("dry-run: false -> true");
    assertThat(engine.config().dryRun()).isTrue();
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, client)))
        .as("dry-run admits what it would reject").isTrue();
    assertThat(engine.stats().wouldReject(Reason.INFLIGHT_LIMIT)).isEqualTo(1);
    assertThat(watcher.appliedCount()).isEqualTo(1);
    assertThat(results).containsExactly(result);
  }

  @Test
  void anInvalidFileChangesNothingAndIsCounted() throws IOException {
    AdmissionEngine engine = started();
    EngineConfig running = engine.config();
    ConfigWatcher<EngineConfig> watcher = watcher(engine);

    write(BASE + "queues:\n  read:\n    target: 0ms\ndry-run: true\n");
    ReloadResult result = watcher.reloadNow();

    assertThat(result.status()).isEqualTo(ReloadResult.Status.REJECTED);
    assertThat(result.problems()).extracting(ConfigProblem::message)
        .containsExactly("queues.read.target: must be > 0 and < interval (100ms), was 0ms");
    assertThat(result.problems().get(0).origin()).isEqualTo("spillway.yaml:7");
    assertThat(engine.config()).isSameAs(running);
    assertThat(watcher.current()).isSameAs(running);
    assertThat(watcher.rejectedCount()).isEqualTo(1);
    assertThat(watcher.appliedCount()).isZero();

    write(BASE + "queues:\n  raed: {}\n");
    assertThat(watcher.reloadNow().problems()).extracting(ConfigProblem::message)
        .containsExactly("queues.raed: unknown key, expected one of: read, scan, write");
    write("limit: [\n");
    assertThat(watcher.reloadNow().problems().get(0).message()).startsWith("not valid YAML");
    Files.delete(file);
    assertThat(watcher.reloadNow().problems().get(0).message()).startsWith("cannot read: ");
    assertThat(watcher.rejectedCount()).isEqualTo(4);
    assertThat(engine.config()).isSameAs(running);
  }

  @Test
  void anUnchangedFileIsNotReapplied() throws IOException {
    AdmissionEngine engine = started();
    ConfigWatcher<EngineConfig> watcher = watcher(engine);
    write(BASE + "# only a comment changed\n");
    assertThat(watcher.reloadNow().status()).isEqualTo(ReloadResult.Status.UNCHANGED);
    assertThat(watcher.appliedCount()).isZero();
    assertThat(results).isEmpty();
  }

  @Test
  void aConfigTheEngineRefusesIsRejected() throws IOException {
    AdmissionEngine engine = started();
    EngineConfig running = engine.config();
    ConfigWatcher<EngineConfig> watcher = watcher(engine);
    write("limit:\n  initial: 4\n  min: 4\n  max: 1000000\n"); // beyond the permit table sized at start
    ReloadResult result = watcher.reloadNow();
    assertThat(result.status()).isEqualTo(ReloadResult.Status.REJECTED);
    assertThat(result.problems().get(0).message()).startsWith("refused by the engine: limitMax must be <=");
    assertThat(engine.config()).isSameAs(running);
  }

  @Test
  void reloadsReachListenersAsEvents() throws IOException {
    AdmissionEngine engine = started();
    AdmissionListeners listeners = new AdmissionListeners();
    List<ReloadEvent> events = new ArrayList<>();
    listeners.add(new AdmissionListener() {
      @Override
      public void onReload(ReloadEvent event) {
        events.add(event);
      }
    });
    ConfigWatcher<EngineConfig> watcher = new ConfigWatcher<>(file, SpillwayConfig.loader(), engine.config(),
        engine::reconfigure, r -> listeners.reloaded(r.toEvent()), Duration.ofSeconds(1), Duration.ZERO);
    write(BASE + "pid:\n  kp: 0.2\n");
    watcher.reloadNow();
    write(BASE + "pid:\n  kp: -1\n");
    watcher.reloadNow();
    assertThat(events).extracting(ReloadEvent::applied).containsExactly(true, false);
    assertThat(events.get(0).changes()).containsExactly("pid.kp: 0.1 -> 0.2");
    assertThat(events.get(1).problems()).containsExactly("pid.kp: must be >= 0 and finite, was -1.0 (spillway.yaml:6)");
  }

  @Test
  void aClientCannotClaimATierAboveItsClass() {
    EngineConfig config = SpillwayConfig.parse(String.join("\n",
        "clients:",
        "  default: {share: 2.0, floor: 1, max-tier: t2}",
        "  classes:",
        "    batch: {pattern: 'batch-.*', share: 0.5, floor: 2, max-tier: t3}",
        ""), "spillway.yaml");
    AdmissionEngine engine = AdmissionEngine.create(config, clock::read);
    ClientHandle batch = engine.clients().register("batch-7");
    ClientHandle other = engine.clients().register("unknown-service");

    long token = engine.tryAcquire(OpType.READ, Tier.T0, batch);
    long second = engine.tryAcquire(OpType.READ, Tier.T0, other);
    long modest = engine.tryAcquire(OpType.READ, Tier.T5, batch);

    assertThat(Decisions.isAdmitted(token) && Decisions.isAdmitted(second) && Decisions.isAdmitted(modest)).isTrue();
    assertThat(engine.stats().admitted(Tier.T0)).as("nobody may claim t0 here").isZero();
    assertThat(engine.stats().admitted(Tier.T3)).as("batch's t0 claim capped to t3").isEqualTo(1);
    assertThat(engine.stats().admitted(Tier.T2)).as("the default class's t0 claim capped to t2").isEqualTo(1);
    assertThat(engine.stats().admitted(Tier.T5)).as("a claim below the cap is kept").isEqualTo(1);
    engine.release(token, Outcome.SUCCESS, 1_000);
  }
}
