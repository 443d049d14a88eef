package io.spillway.demo.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.metrics.LongCounter;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.Timekeeper;
import org.junit.jupiter.api.Test;

class MicrometerRatisMetricsTest {
  private static final MetricRegistryInfo LOG_WORKER =
      new MetricRegistryInfo("n1@group-1", "ratis", "log_worker", "Raft log worker");

  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final MicrometerRatisMetrics ratis = new MicrometerRatisMetrics(meters);

  @Test
  void ratisLoadsThisImplementationInPlaceOfItsDefault() {
    assertThat(MetricRegistries.global()).isInstanceOf(MicrometerRatisMetrics.class);
  }

  @Test
  void timersCountersAndGaugesAreMicrometerMetersNamedByComponentAndTaggedByMember() {
    final RatisMetricRegistry registry = ratis.create(LOG_WORKER);
    assertThat(ratis.create(LOG_WORKER)).as("one registry per info").isSameAs(registry);

    final Timekeeper.Context context = registry.timer("flushTime").time();
    assertThat(context.stop()).isNotNegative();
    final Timer timer = meters.get("ratis.log_worker.flushTime").tag("member", "n1@group-1").timer();
    assertThat(timer.count()).isEqualTo(1);

    final LongCounter counter = registry.counter("pendingRequests");
    counter.inc(5);
    counter.dec(2);
    registry.counter("pendingRequests").inc(); // the same counter, asked for again
    assertThat(meters.get("ratis.log_worker.pendingRequests").gauge().value()).isEqualTo(4.0);

    final AtomicLong index = new AtomicLong(41);
    registry.gauge("flushedIndex", () -> index::get);
    index.incrementAndGet();
    assertThat(meters.get("ratis.log_worker.flushedIndex").gauge().value()).isEqualTo(42.0);
    registry.gauge("state", () -> () -> "LEADER");
    assertThat(meters.get("ratis.log_worker.state").gauge().value()).as("not a number").isNaN();
  }

  @Test
  void removingAMetricOrARegistryRemovesItsMeters() {
    final RatisMetricRegistry registry = ratis.create(LOG_WORKER);
    registry.timer("flushTime").time().stop();
    registry.counter("pendingRequests").inc();
    assertThat(registry.remove("flushTime")).isTrue();
    assertThat(meters.find("ratis.log_worker.flushTime").meter()).isNull();
    assertThat(meters.find("ratis.log_worker.pendingRequests").meter()).isNotNull();

    assertThat(ratis.remove(LOG_WORKER)).isTrue();
    assertThat(meters.getMeters()).isEmpty();
    assertThat(ratis.get(LOG_WORKER)).isEmpty();
    assertThat(ratis.remove(LOG_WORKER)).isFalse();
  }

  @Test
  void reportersSeeEveryRegistryAndJmxIsRefusedWithTheReason() {
    final AtomicLong created = new AtomicLong();
    final AtomicLong removed = new AtomicLong();
    ratis.create(LOG_WORKER);
    ratis.addReporterRegistration(r -> created.incrementAndGet(), r -> removed.incrementAndGet());
    ratis.create(new MetricRegistryInfo("n1", "ratis", "server", "Raft server"));
    ratis.clear();
    assertThat(created).hasValue(2);
    assertThat(removed).hasValue(2);
    assertThatThrownBy(ratis::enableJmxReporter).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("/metrics");
  }
}
