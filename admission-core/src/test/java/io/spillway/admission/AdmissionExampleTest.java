package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The example of {@code docs/admission-core.md}, compiled and run: if this file changes, the doc changes with it
 * (the block between the EXAMPLE markers is copied verbatim).
 */
class AdmissionExampleTest {

  @Test
  void documentedExampleRuns() {
    VirtualClock clock = new VirtualClock(0);
    Ticker ticker = clock::read;
    Executor executor = Runnable::run;
    StringBuilder log = new StringBuilder();

    // EXAMPLE-START
    EngineConfig config = EngineConfig.builder()
        .limitInitial(64).limitMin(8).limitMax(512)
        .queuesLatencyTarget(OpType.READ, Duration.ofMillis(5))
        .clientsClasses("batch", "batch-.*", 0.1, 2, Tier.T3)   // 10 % of the limit, never above T3
        .build();
    AdmissionEngine engine = AdmissionEngine.create(config, ticker);
    // engine.start(scheduler);  // or call engine.tick() every config.pidTick() from your own scheduler
    engine.addSignal(Signal.of("raft.follower.lag", SignalScope.of(OpSet.WRITES, 7), 1_000,
        () -> 120.0));                                        // a lagging follower sheds partition 7's writes

    ClientHandle checkout = engine.clients().register("checkout");   // once per client

    // Fast path: no allocation, no lock.
    long token = engine.tryAcquire(OpType.READ, Tier.T1, checkout, 7, ticker.read());
    if (Decisions.isAdmitted(token)) {
      long start = ticker.read();
      // ... serve the read ...
      engine.release(token, Outcome.SUCCESS, ticker.read() - start);
    } else {
      log.append("rejected ").append(Decisions.reason(token))
          .append(", retry after ").append(Decisions.retryAfterNanos(token)).append(" ns");
    }

    // Fastest: a reusable lease per unit of concurrency (a worker, a connection slot) instead of a token.
    Lease lease = engine.newLease();                                  // once, then reused request after request
    if (Decisions.isAdmitted(engine.tryAcquire(lease, OpType.READ, Tier.T1, checkout, 7, ticker.read()))) {
      // ... serve the read ...
      lease.release(Outcome.SUCCESS, 1_000_000L);
    }

    // Async: queues at the limit, answers later on the executor; no thread waits.
    engine.submit(OpType.WRITE, Tier.T2, checkout, 7, Decisions.NO_DEADLINE, executor,
        new AdmissionCallback() {
          @Override
          public void onAdmitted(long permit) {
            // ... serve the write, then:
            engine.release(permit, Outcome.SUCCESS, 2_000_000L);
          }

          @Override
          public void onRejected(Reason reason, long retryAfterNanos) {
            log.append("rejected ").append(reason);
          }
        });

    engine.tick();
    EngineStats stats = engine.stats();
    log.append("limit=").append(stats.limit()).append(" inflight=").append(stats.inflight());
    // EXAMPLE-END

    assertThat(log).hasToString("limit=64 inflight=0");
    assertThat(stats.admitted(Tier.T1)).isEqualTo(2);
    assertThat(stats.admitted(Tier.T2)).isEqualTo(1);
  }

  @Test
  void docShowsThisExampleVerbatim() throws IOException {
    String source = Files.readString(Path.of("src/test/java/io/spillway/admission/AdmissionExampleTest.java"));
    String block = source.substring(source.indexOf("// EXAMPLE-START\n") + "// EXAMPLE-START\n".length(),
        source.indexOf("    // EXAMPLE-END"));
    String dedented = block.lines().map(l -> l.startsWith("    ") ? l.substring(4) : l)
        .collect(Collectors.joining("\n"));
    String doc = Files.readString(Path.of("..", "docs", "admission-core.md"));
    assertThat(doc).contains(dedented);
  }
}
