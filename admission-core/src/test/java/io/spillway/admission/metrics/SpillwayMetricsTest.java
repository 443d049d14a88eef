package io.spillway.admission.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import io.spillway.admission.event.AdmissionListener;
import io.spillway.admission.event.AdmissionListeners;
import io.spillway.admission.event.AdmitEvent;
import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SpillwayMetricsTest {

  private final VirtualClock clock = new VirtualClock(1_000_000_000L);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private AdmissionEngine engine;
  private ClientHandle web;
  private ClientHandle noisy;
  private final List<Long> webTokens = new ArrayList<>();

  @BeforeEach
  void scriptedScenario() {
    EngineConfig config = EngineConfig.builder().limitInitial(4).limitMin(4).limitMax(16)
        .clientsClasses("noisy", "noisy-.*", 0.25, 1, Tier.T3).build();
    engine = AdmissionEngine.create(config, clock::read);
    web = engine.clients().register("web-1");
    noisy = engine.clients().register("noisy-1");
    engine.tick(); // the first tick closes the start room: from here a T1 request past the limit is refused

    for (int i = 0; i < 4; i++) {
      webTokens.add(engine.tryAcquire(OpType.READ, Tier.T1, web));           // 4 admitted: the limit
    }
    long overLimit = engine.tryAcquire(OpType.READ, Tier.T1, web);          // INFLIGHT_LIMIT
    assertThat(Decisions.reason(overLimit)).isEqualTo(Reason.INFLIGHT_LIMIT);
    engine.release(webTokens.get(0), Outcome.SUCCESS, 2_000_000);
    engine.release(webTokens.get(1), Outcome.ERROR, 3_000_000);
    long noisyToken = engine.tryAcquire(OpType.WRITE, Tier.T0, noisy);    // admitted, capped to T3
    assertThat(Decisions.isAdmitted(noisyToken)).isTrue();
    long noisyAgain = engine.tryAcquire(OpType.WRITE, Tier.T0, noisy);    // over its cap of 1: CLIENT_LIMIT
    assertThat(Decisions.reason(noisyAgain)).isEqualTo(Reason.CLIENT_LIMIT);
    clock.advanceNanos(TimeUnit.MILLISECONDS.toNanos(100));
    engine.tick();
  }

  private double counter(String name, String... tags) {
    return registry.get(name).tags(tags).functionCounter().count();
  }

  private double gauge(String name, String... tags) {
    return registry.get(name).tags(tags).gauge().value();
  }

  @Test
  void registryReadsTheScenarioFromTheEngine() {
    new SpillwayMetrics(engine).bindTo(registry);

    assertThat(counter(MeterNames.REQUESTS, "tier", "t1", "outcome", "admitted")).isEqualTo(4);
    assertThat(counter(MeterNames.REQUESTS, "tier", "t1", "outcome", "rejected")).isEqualTo(1);
    assertThat(counter(MeterNames.REQUESTS, "tier", "t3", "outcome", "admitted")).isEqualTo(1);
    assertThat(counter(MeterNames.REQUESTS, "tier", "t3", "outcome", "rejected")).isEqualTo(1);
    assertThat(counter(MeterNames.REQUESTS, "tier", "t0", "outcome", "admitted"))
        .as("the noisy client's T0 claim is capped to its class's highest tier, T3").isZero();
    assertThat(counter(MeterNames.REJECTIONS, "reason", "inflight_limit")).isEqualTo(1);
    assertThat(counter(MeterNames.REJECTIONS, "reason", "client_limit")).isEqualTo(1);
    assertThat(counter(MeterNames.REJECTIONS, "reason", "shed_tier")).isZero();
    assertThat(counter(MeterNames.COMPLETIONS, "outcome", "error")).isEqualTo(1);
    assertThat(counter(MeterNames.COMPLETIONS, "outcome", "success")).isEqualTo(1);
    assertThat(counter(MeterNames.TICKS)).as("the start room's tick and the scenario's").isEqualTo(2);
    assertThat(counter(MeterNames.WOULD_REJECT, "reason", "client_limit", "tier", "t3", "op", "write")).isZero();

    assertThat(gauge(MeterNames.INFLIGHT)).isEqualTo(3);
    assertThat(gauge(MeterNames.LIMIT)).isEqualTo(engine.stats().limit());
    assertThat(gauge(MeterNames.WAITING)).isZero();
    assertThat(gauge(MeterNames.PRIORITY_LEVELS)).isEqualTo(6 * 128);
    assertThat(gauge(MeterNames.PRIORITY_CUT, "scope", "all")).isEqualTo(engine.stats().cut());
    assertThat(gauge(MeterNames.REJECTION_RATIO, "scope", "all")).isEqualTo(engine.stats().rejectionRatio());
    assertThat(gauge(MeterNames.QUEUE_SIZE, "op", "read", "tier", "t1")).isZero();
    assertThat(gauge(MeterNames.QUEUE_LIFO, "op", "read", "tier", "t1")).isZero();
    assertThat(gauge(MeterNames.DRY_RUN)).isZero();
    assertThat(registry.get(MeterNames.SERVICE_TIME).tags("op", "read").timeGauge().value(TimeUnit.NANOSECONDS))
        .isEqualTo(engine.stats().serviceTimeNanos(OpType.READ));
    assertThat(registry.get(MeterNames.QUEUE_TIMEOUT).tags("op", "scan").timeGauge().value(TimeUnit.NANOSECONDS))
        .isEqualTo(engine.stats().queueTimeoutNanos(OpType.SCAN));
    assertThat(registry.find(MeterNames.SIGNAL_TARGET).gauges()).isNotEmpty();
  }

  @Test
  void rejectionsByReasonTierAndOpCompletionsByOpAndIntervalLatency() {
    new SpillwayMetrics(engine).bindTo(registry);

    assertThat(counter(MeterNames.REJECTIONS_DETAIL, "reason", "inflight_limit", "tier", "t1", "op", "read"))
        .isEqualTo(1);
    assertThat(counter(MeterNames.REJECTIONS_DETAIL, "reason", "client_limit", "tier", "t3", "op", "write"))
        .as("capped tier").isEqualTo(1);
    assertThat(counter(MeterNames.REJECTIONS_DETAIL, "reason", "client_limit", "tier", "t0", "op", "write"))
        .isZero();
    assertThat(registry.find(MeterNames.REJECTIONS_DETAIL).functionCounters()).hasSize(8 * 6 * 3);
    assertThat(counter(MeterNames.COMPLETIONS_BY_OP, "op", "read", "outcome", "success")).isEqualTo(1);
    assertThat(counter(MeterNames.COMPLETIONS_BY_OP, "op", "read", "outcome", "error")).isEqualTo(1);
    assertThat(counter(MeterNames.COMPLETIONS_BY_OP, "op", "write", "outcome", "success")).isZero();

    double p50 = registry.get(MeterNames.LATENCY_INTERVAL).tags("op", "read", "statistic", "p50").timeGauge()
        .value(TimeUnit.NANOSECONDS);
    assertThat(p50).isCloseTo(2_000_000, org.assertj.core.api.Assertions.within(20_000.0)); // the one 2 ms success
    assertThat(registry.get(MeterNames.LATENCY_INTERVAL).tags("op", "read", "statistic", "max").timeGauge()
        .value(TimeUnit.NANOSECONDS)).isEqualTo(engine.stats().intervalMaxNanos(OpType.READ));
    assertThat(registry.get(MeterNames.LATENCY_INTERVAL).tags("op", "scan", "statistic", "p99").timeGauge()
        .value(TimeUnit.NANOSECONDS)).as("no scan completed in the interval").isZero();

    engine.release(webTokens.get(2), Outcome.SUCCESS, 4_000_000);
    assertThat(counter(MeterNames.COMPLETIONS_BY_OP, "op", "read", "outcome", "success"))
        .as("successes are counted when the control loop samples them").isEqualTo(1);
    clock.advanceNanos(TimeUnit.MILLISECONDS.toNanos(100));
    engine.tick();
    assertThat(counter(MeterNames.COMPLETIONS_BY_OP, "op", "read", "outcome", "success")).isEqualTo(2);
    assertThat(engine.stats().intervalCount(OpType.READ)).isEqualTo(1);
    assertThat((double) engine.stats().intervalP90Nanos(OpType.READ))
        .isCloseTo(4_000_000, org.assertj.core.api.Assertions.within(40_000.0));
  }

  @Test
  void signalValuesAreTheControlLoopsLastReadingNotAFreshCall() {
    java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
    engine.addSignal(Signal.of("lag", SignalScope.of(OpSet.WRITES), 10, () -> 5.0 * reads.incrementAndGet()));
    assertThat(engine.stats().signals()).anySatisfy(v -> {
      assertThat(v.name()).isEqualTo("lag");
      assertThat(v.value()).as("not read before its first tick").isNaN();
    });
    clock.advanceNanos(TimeUnit.MILLISECONDS.toNanos(100));
    engine.tick();
    new SpillwayMetrics(engine).bindTo(registry);
    for (int i = 0; i < 3; i++) {
      assertThat(gauge(MeterNames.SIGNAL_VALUE, "signal", "lag", "scope", "writes")).isEqualTo(5.0);
    }
    assertThat(reads.get()).as("only the control thread calls value(), once per tick").isEqualTo(1);
  }

  @Test
  void metersAreReadLiveNotCopied() {
    new SpillwayMetrics(engine).bindTo(registry);
    engine.release(webTokens.get(2), Outcome.DROPPED, 0);
    assertThat(gauge(MeterNames.INFLIGHT)).isEqualTo(2);
    assertThat(counter(MeterNames.COMPLETIONS, "outcome", "dropped")).isEqualTo(1);
  }

  @Test
  void everyRegisteredMeterIsDocumentedInMeterNamesAndViceVersa() {
    AdmissionListeners listeners = new AdmissionListeners();
    new SpillwayMetrics(engine, 5, listeners, null, Tags.empty()).bindTo(registry);
    Set<String> registered = registry.getMeters().stream().map(m -> m.getId().getName()).collect(Collectors.toSet());
    Set<String> documented = MeterNames.ALL.stream().map(MeterNames.Meter::name).collect(Collectors.toSet());
    assertThat(registered).isSubsetOf(documented);
    assertThat(documented).containsAll(registered)
        .contains(MeterNames.CONFIG_RELOADS); // the only meter absent here: it needs a config watcher
    assertThat(registered).containsAll(documented.stream().filter(n -> !n.equals(MeterNames.CONFIG_RELOADS))
        .collect(Collectors.toSet()));
    for (Meter meter : registry.getMeters()) {
      MeterNames.Meter doc = MeterNames.ALL.stream().filter(d -> d.name().equals(meter.getId().getName()))
          .findFirst().orElseThrow();
      Set<String> tagKeys = meter.getId().getTags().stream().map(t -> t.getKey()).collect(Collectors.toSet());
      assertThat(tagKeys).as(meter.getId().getName()).containsExactlyInAnyOrderElementsOf(doc.tags());
    }
  }

  @Test
  void clientIdsAreTagsOnlyForTheTopNClients() {
    new SpillwayMetrics(engine).bindTo(registry);
    assertThat(registry.getMeters()).allSatisfy(m -> assertThat(m.getId().getTag("client")).isNull());

    SimpleMeterRegistry capped = new SimpleMeterRegistry();
    for (int i = 0; i < 50; i++) {
      engine.clients().register("idle-" + i);
    }
    new SpillwayMetrics(engine, 1, null, null, Tags.empty()).bindTo(capped);
    assertThat(capped.find(MeterNames.CLIENT_OUTSTANDING).gauges()).hasSize(1);
    assertThat(capped.get(MeterNames.CLIENT_OUTSTANDING).tag("client", "web-1").gauge().value()).isEqualTo(2);
  }

  @Test
  void refreshPicksUpSignalsAndScopesAddedLater() {
    SpillwayMetrics metrics = new SpillwayMetrics(engine);
    metrics.bindTo(registry);
    engine.addSignal(Signal.of("follower.lag", SignalScope.of(OpSet.WRITES, 7), 100, () -> 250));
    clock.advanceNanos(TimeUnit.MILLISECONDS.toNanos(100));
    engine.tick();
    metrics.refresh();
    assertThat(gauge(MeterNames.SIGNAL_VALUE, "signal", "follower.lag", "scope", "writes/partition=7"))
        .isEqualTo(250);
    assertThat(gauge(MeterNames.SIGNAL_TARGET, "signal", "follower.lag", "scope", "writes/partition=7"))
        .isEqualTo(100);
    assertThat(registry.find(MeterNames.REJECTION_RATIO).tag("scope", "writes/partition=7").gauge()).isNotNull();
  }

  @Test
  void listenerFailuresAreCounted() {
    AdmissionListeners listeners = new AdmissionListeners();
    listeners.add(new AdmissionListener() {
      @Override
      public void onAdmit(AdmitEvent event) {
        throw new IllegalStateException("broken dashboard");
      }
    });
    new SpillwayMetrics(engine, 0, listeners, null, Tags.of("node", "n1")).bindTo(registry);
    listeners.admitted(OpType.READ, Tier.T1, "web-1", 0, false, clock.read());
    assertThat(counter(MeterNames.LISTENER_FAILURES, "node", "n1")).isEqualTo(1);
  }
}
